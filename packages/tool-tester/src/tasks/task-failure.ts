// What a task's outcome says when it did not reach a tool (an error, a timeout while loading, a
// file that ended the engine, an engine that never came up), and which engine ran it: shared by
// the CLI's commands and preflight.
import { loadStalled } from "../engine-client/load-stalled.ts"
import { plugNPlayAdvice } from "../engine-client/plug-n-play.ts"
import { ToolTesterError } from "../errors.ts"
import { exitedWith } from "../runtime/exit-in-call.ts"
import type { EngineInfo } from "../runtime/here.ts"
import type { TaskOutcome } from "./engine-task.ts"
import type { BunSource } from "../engine-client/find-bun.ts"

/** How long loading the tool files may take (list, schema, doctor, fuzz, dev, preflight; run's floor), by default. */
const LOAD_TIMEOUT_MS = 60_000

/**
 * The load bound in force: TOOL_TESTER_LOAD_TIMEOUT_MS (whole milliseconds) when set, else
 * {@link LOAD_TIMEOUT_MS}. It lets a test see a file that never finishes loading stopped without
 * waiting a minute (docs/cli.md#how-run-isolates-the-tool). Anything but a whole number is USAGE.
 */
export function loadTimeoutMs(env: Record<string, string | undefined> = process.env): number {
  const given = env["TOOL_TESTER_LOAD_TIMEOUT_MS"]
  if (given === undefined || given === "") return LOAD_TIMEOUT_MS
  if (/^[1-9][0-9]{0,8}$/.test(given)) return Number(given)
  throw new ToolTesterError(
    "USAGE",
    `TOOL_TESTER_LOAD_TIMEOUT_MS is "${given}": give the load bound in whole milliseconds, from 1 to 999999999 (the default is ${LOAD_TIMEOUT_MS}), or unset it`,
    { data: { loadTimeoutMs: given } },
  )
}

/** A failure as the CLI reports it: a code from docs/errors.md and one line. */
export type TaskFailure = { code: string; message: string }

/** Why a task that never reached a tool failed: an error, a timeout while loading, or a file that ended the worker. */
export function loadFailure(
  outcome: TaskOutcome,
  loadTimeoutMs: number,
  pnpAdvice: string | undefined = plugNPlayAdvice(),
): TaskFailure | undefined {
  switch (outcome.kind) {
    case "failed":
      return outcome.error
    case "timeout":
      if (outcome.phase === "load" && !outcome.started) return neverUp(outcome, loadTimeoutMs)
      return outcome.phase === "load"
        ? {
            code: "TOOL_TIMEOUT",
            message: loadStalled(outcome.loadingFile, outcome.loadingInit, loadTimeoutMs),
          }
        : undefined
    case "exited":
      if (!outcome.started) {
        const why = outcome.crash ?? `it exited with code ${outcome.exitCode}`
        const said = outcome.console.stderr.trim().split("\n")[0]
        return {
          code: "ENGINE_FAILED",
          message: `the bun engine ${outcome.engine.binary} did not start (${why}${said ? `: ${said}` : ""}); ${pnpAdvice ?? "give --engine-binary an opencode or bun executable, or use --engine node"}`,
        }
      }
      if (outcome.phase !== "load") return undefined
      return { code: "IMPORT_FAILED", message: loadExitMessage(outcome) }
    default:
      return undefined
  }
}

/**
 * The engine never said it was up (its `ready`, sent before it reads its task): it loaded no tool
 * file, so what did not answer is the engine's binary, not a file's top-level await.
 */
function neverUp(outcome: TaskOutcome, loadTimeoutMs: number): TaskFailure {
  const { engine } = outcome
  // A bound the user made shorter is the likelier cause than the binary.
  const bound =
    loadTimeoutMs === LOAD_TIMEOUT_MS
      ? ""
      : ` (the bound TOOL_TESTER_LOAD_TIMEOUT_MS sets; the default is ${LOAD_TIMEOUT_MS} ms: raise it, or unset it)`
  if (engine.name !== "bun")
    return {
      code: "ENGINE_FAILED",
      message: `the node engine (${engine.binary}) did not start within ${loadTimeoutMs} ms${bound}, so no tool file was loaded: the machine may be too busy; try again`,
    }
  return {
    code: "ENGINE_FAILED",
    message: `the bun engine ${engine.binary} did not start within ${loadTimeoutMs} ms${bound} (it never said it was up, so no tool file was loaded): it is not an opencode or a bun, or it hangs; give --engine-binary an opencode or bun executable, or use --engine node`,
  }
}

/** Why the engine ended while importing, naming the file it was on. */
function loadExitMessage(outcome: Extract<TaskOutcome, { kind: "exited" }>): string {
  const file = outcome.loadingFile ?? "a tool or plugin file"
  if (outcome.crash) return `${file}: the engine ended while loading it: ${outcome.crash}`
  // Node ends a thread whose only work left is a top-level await that can never settle with 13.
  if (outcome.exitCode === 13 && outcome.engine.name === "node")
    return `${file}: its top-level await never settles; opencode would wait for it forever, with no tool at all: do that work in execute`
  return `${file}: ended the process while loading (process.exit(${outcome.exitCode})); opencode itself would exit: remove the process.exit call`
}

/** Which engine ran a task, and where its Bun came from. */
export type EngineReport = { info: EngineInfo; source?: BunSource }

export function engineReport(outcome: TaskOutcome): EngineReport {
  return outcome.engineSource === undefined
    ? { info: outcome.engine }
    : { info: outcome.engine, source: outcome.engineSource }
}

/** Why the engine ended while the tool ran: out of memory, killed, or process.exit. */
export function exitedMessage(outcome: TaskOutcome): string {
  if (outcome.kind !== "exited") return "the engine ended while the tool ran"
  if (outcome.crash && /out of memory|memory limit/i.test(outcome.crash))
    return `the tool ran out of memory (${outcome.crash}); in opencode it would take opencode down with it: keep less in memory, or stream`
  if (outcome.signal) {
    // SIGKILL is how the system ends a process over its memory; SIGABRT or SIGILL are a crash or process.abort().
    const why = outcome.signal === "SIGKILL" ? " (the system ends a process that runs out of memory this way)" : ""
    return `the engine was killed by ${outcome.signal} while the tool ran${why}; in opencode it would take opencode down with it`
  }
  if (outcome.crash) return `the engine ended while the tool ran: ${outcome.crash}`
  return exitedWith(outcome.exitCode)
}
