// What every command shares: the I/O it is given (only main.ts reads `process`), the flags common
// to all commands, and how failures are printed.
import { existsSync, statSync } from "node:fs"
import path from "node:path"
import type { ParseArgsConfig } from "node:util"
import { parseArgs } from "node:util"
import type { EngineInfo } from "../engine/choose-engine.ts"
import type { BunSource } from "../engine/find-bun.ts"
import { ToolTesterError } from "../errors.ts"
import { EXIT_LOAD_FAILED, EXIT_OK, exitCodeFor } from "./exit-codes.ts"
import type { FlagContext } from "./flag-errors.ts"
import { flagError } from "./flag-errors.ts"
import type { IsolatedOutcome, StartedWorker } from "./isolate.ts"
import { runIsolated } from "./isolate.ts"
import { modelSelection } from "./model-option.ts"
import { projectDirectory } from "./project-directory.ts"
import { formatFailure } from "./report.ts"
import type { ProjectInput, Task } from "./worker-protocol.ts"

/** The outside world as a command sees it. */
export type CliIO = {
  cwd: string
  env: Record<string, string | undefined>
  stdoutIsTTY: boolean
  /** Whether stderr is a terminal: progress lines are drawn only then. */
  stderrIsTTY: boolean
  write: (text: string) => void
  writeError: (text: string) => void
  /** Changes the working directory (tools see `process.cwd()` = the project, as under opencode). */
  chdir: (directory: string) => void
  /** Calls `handler` on Ctrl-C (SIGINT) or SIGTERM instead of dying at once; returns the function that stops listening. */
  onInterrupt: (handler: () => void) => () => void
}

/** The exit code after Ctrl-C, as shells report a process ended by SIGINT. */
export const EXIT_INTERRUPTED = 130

export type Failure = { code: string; message: string }

/** How long loading the tool files may take for list, schema and doctor. */
export const LOAD_TIMEOUT_MS = 60_000

/** Flags every command takes. */
export const PROJECT_FLAGS = {
  dir: { type: "string" },
  plugin: { type: "string", multiple: true },
  "no-global": { type: "boolean" },
  engine: { type: "string" },
  "engine-binary": { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const

/** Flags of the commands whose result depends on the model. */
export const MODEL_FLAGS = {
  provider: { type: "string" },
  model: { type: "string" },
} as const

/**
 * node:util parseArgs in strict mode, with its errors turned into usage errors that say what was
 * meant (the closest option; for run, a tool's argument as key=value).
 */
export function parseFlags<T extends ParseArgsConfig>(
  config: T,
  context: FlagContext = {},
): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config)
  } catch (error) {
    throw flagError(error, config, context)
  }
}

/**
 * The project the shared flags describe; relative paths are taken from the working directory.
 * Without --dir, inside a `.opencode` folder, the project is its parent (project-directory.ts).
 */
export function projectInput(
  values: {
    dir?: string | undefined
    plugin?: string[] | undefined
    "no-global"?: boolean | undefined
    json?: boolean | undefined
  },
  model: { provider?: string | undefined; model?: string | undefined },
  io: CliIO,
): ProjectInput {
  const selection = modelSelection(model)
  const { directory, notice } = projectDirectory(io.cwd, values.dir)
  if (notice && values.json !== true) io.writeError(`${notice}\n`)
  if (!existsSync(directory) || !statSync(directory).isDirectory()) {
    throw new ToolTesterError("PATH_NOT_FOUND", `${directory} is not a folder; pass the project directory with --dir`, {
      data: { directory },
    })
  }
  return {
    directory,
    global: values["no-global"] !== true,
    // A relative plugin path means "from here", like every other path on the command line.
    plugins: (values.plugin ?? []).map((spec) => (spec.startsWith(".") ? path.resolve(io.cwd, spec) : spec)),
    model: selection,
  }
}

/** Prints a failure: one line of JSON on stderr with --json, a readable line otherwise. */
export function reportFailure(io: CliIO, json: boolean, failure: Failure): void {
  io.writeError(
    json ? `${JSON.stringify({ error: { code: failure.code, message: failure.message } })}\n` : formatFailure(failure),
  )
}

/** Why a task that never reached a tool failed: an error, a timeout while loading, or a file that ended the worker. */
export function loadFailure(outcome: IsolatedOutcome, loadTimeoutMs: number): Failure | undefined {
  switch (outcome.kind) {
    case "failed":
      return outcome.error
    case "timeout":
      return outcome.phase === "load"
        ? {
            code: "TOOL_TIMEOUT",
            message: outcome.loadingFile
              ? `${outcome.loadingFile}: importing it did not finish within ${loadTimeoutMs} ms (a top-level await that never settles, or a loop at import time); opencode would wait for it forever, with no tool at all`
              : `loading the tool and plugin files did not finish within ${loadTimeoutMs} ms: look for a top-level await that never settles or a loop at import time`,
          }
        : undefined
    case "exited":
      if (!outcome.started) {
        const why = outcome.crash ?? `it exited with code ${outcome.exitCode}`
        const said = outcome.console.stderr.trim().split("\n")[0]
        return {
          code: "ENGINE_FAILED",
          message: `the bun engine ${outcome.engine.binary} did not start (${why}${said ? `: ${said}` : ""}); give --engine-binary an opencode or bun executable, or use --engine node`,
        }
      }
      if (outcome.phase !== "load") return undefined
      return { code: "IMPORT_FAILED", message: loadExitMessage(outcome) }
    default:
      return undefined
  }
}

/** Why the engine ended while importing, naming the file it was on. */
function loadExitMessage(outcome: Extract<IsolatedOutcome, { kind: "exited" }>): string {
  const file = outcome.loadingFile ?? "a tool or plugin file"
  if (outcome.crash) return `${file}: crashed the engine while loading: ${outcome.crash}`
  // Node ends a thread whose only work left is a top-level await that can never settle with 13.
  if (outcome.exitCode === 13 && outcome.engine.name === "node")
    return `${file}: its top-level await never settles; opencode would wait for it forever, with no tool at all: do that work in execute`
  return `${file}: ended the process while loading (process.exit(${outcome.exitCode})); opencode itself would exit: remove the process.exit call`
}

/**
 * Runs a list, schema or doctor task in the worker. Returns its payload, or the exit code after
 * printing why it failed (an error, or loading that timed out or ended the worker).
 */
export async function performTask<T>(
  io: CliIO,
  json: boolean,
  task: Task,
  worker: StartedWorker | undefined,
): Promise<{ payload: T; engine: EngineReport; exitCode?: never } | { exitCode: number }> {
  const outcome = await runIsolated(
    task,
    { loadTimeoutMs: LOAD_TIMEOUT_MS, runTimeoutMs: LOAD_TIMEOUT_MS, graceMs: 0 },
    worker,
  )
  const failure = loadFailure(outcome, LOAD_TIMEOUT_MS)
  if (outcome.kind === "done" && !failure) return { payload: outcome.payload as T, engine: engineReport(outcome) }
  const reported = failure ?? { code: "INTERNAL", message: "the worker ended without an answer" }
  reportFailure(io, json, reported)
  return { exitCode: exitCodeFor(reported.code) }
}

/** Which engine ran a task, and where its Bun came from. */
export type EngineReport = { info: EngineInfo; source?: BunSource }

export function engineReport(outcome: IsolatedOutcome): EngineReport {
  return outcome.engineSource === undefined
    ? { info: outcome.engine }
    : { info: outcome.engine, source: outcome.engineSource }
}

/** Exit 3 when there are errors (with the JSON failure line naming the first), else 0. */
export function exitForProblems(
  io: CliIO,
  json: boolean,
  problems: ReadonlyArray<Failure & { severity: string }>,
): number {
  const errors = problems.filter((problem) => problem.severity === "error")
  const first = errors[0]
  if (!first) return EXIT_OK
  if (json) {
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : ""
    reportFailure(io, true, { code: first.code, message: first.message + more })
  }
  return EXIT_LOAD_FAILED
}
