// The fuzz command's search across engines. A call that keeps the engine busy past its bound (a
// busy loop, a huge string) or ends its process cannot be answered inside that engine: the engine
// is stopped, that call becomes a failure with its arguments, and a new engine searches again from
// the start with the same seed, knowing the failures found so far and answering that call's
// arguments with its failure instead of calling it. So one slow input does not hide the rest.
import type { StartedEngine, TaskOutcome, TaskTimeouts } from "../../tasks/engine-task.ts"
import { runTaskInEngine, startEngine } from "../../tasks/engine-task.ts"
import type { Reached } from "../../engine-client/protocol.ts"
import type { FuzzInput } from "../../tasks/task.ts"
import { type Failure, failureKey } from "../../fuzz/classify.ts"
import type { FuzzFailure } from "../../fuzz/fuzz-tool.ts"
import type { FuzzProgress } from "../../tasks/fuzz-task.ts"

/** How many times an engine is restarted after a call stopped it, before the search gives up. */
const MAX_ENGINE_RESTARTS = 5

export type FuzzAcrossEngines = {
  /** The last engine's outcome: `done` with the payload, or how it failed (loading, or a call that stopped it). */
  outcome: TaskOutcome
  /** The failures found by engines that were stopped, the calls that stopped them included. */
  found: FuzzFailure[]
  /** Calls made by the engines that were stopped. */
  calls: number
  /** Set when the search gave up: the last call stopped the engine once too often, or before any call. */
  stopped?: { code: StopCode; message: string }
}

/** What a call that stopped its engine is reported as. */
type StopCode = "TOOL_TIMEOUT" | "TOOL_EXITED" | "CHANNEL_FORGED" | "CHANNEL_CLOSED"

export async function fuzzAcrossEngines(
  input: FuzzInput,
  timeouts: TaskTimeouts,
  first: StartedEngine | undefined,
  onServerLog: ((line: string) => void) | undefined,
  /** After each call starts or failure is found: the calls made and the failures found so far, all engines counted. */
  onProgress: (calls: number, failures: number) => void = () => {},
): Promise<FuzzAcrossEngines> {
  const found: FuzzFailure[] = []
  const skip: Array<{ args: unknown; failure: Failure }> = []
  let calls = 0
  let engine = first
  for (let restarts = 0; ; restarts++) {
    let current: { args: unknown } | undefined
    let engineCalls = 0
    const foundHere: FuzzFailure[] = []
    const onLoaded = (reached: Reached | undefined) => {
      if (reached?.progress === undefined) return
      const progress = JSON.parse(reached.progress) as FuzzProgress
      if ("args" in progress) {
        current = { args: progress.args }
        engineCalls++
      } else foundHere.push(progress.failure)
      onProgress(calls + engineCalls, found.length + foundHere.length)
    }
    const outcome = await runTaskInEngine(
      { command: "fuzz", input: { ...input, found: [...found], skip: [...skip] } },
      timeouts,
      engine,
      { ...(onServerLog === undefined ? {} : { onServerLog }), onLoaded },
    )
    // A call that wrote on the engine's channel or closed it (docs/errors.md#channel_forged) is a
    // failure of kind exit, like one that ended the process: the report goes on with a new engine.
    const channel =
      outcome.kind === "failed" && current !== undefined && CHANNEL_FAILURES.has(outcome.error.code)
        ? outcome.error
        : undefined
    if (
      channel === undefined &&
      ((outcome.kind !== "timeout" && outcome.kind !== "exited") || outcome.phase === "load")
    ) {
      return { outcome, found, calls }
    }
    const failure: Failure & { code: StopCode } =
      channel !== undefined
        ? {
            kind: "exit",
            code: channel.code as StopCode,
            message: `${firstLine(channel.message)}; the engine was restarted`,
          }
        : stopFailure(outcome as Extract<TaskOutcome, { kind: "timeout" | "exited" }>, input)
    if (current === undefined) {
      return {
        outcome,
        found,
        calls,
        stopped: { code: failure.code, message: `${failure.message}, before its first call` },
      }
    }
    found.push(...foundHere)
    calls += engineCalls
    skip.push({ args: current.args, failure })
    if (!found.some((known) => failureKey(known) === failureKey(failure))) {
      found.push({ ...failure, args: current.args, output: "" })
    }
    if (restarts === MAX_ENGINE_RESTARTS) {
      return {
        outcome,
        found,
        calls,
        stopped: {
          code: failure.code,
          message: `calls kept the engine busy or ended it ${restarts + 1} times, so fuzzing stopped after ${calls} calls`,
        },
      }
    }
    // A fresh engine of the same kind (the first one was started before the flags were read).
    engine = first === undefined ? undefined : startEngine("fuzz", first.selection)
  }
}

// --- internal ---

const CHANNEL_FAILURES = new Set<string>(["CHANNEL_FORGED", "CHANNEL_CLOSED"] satisfies StopCode[])

function firstLine(text: string): string {
  return text.split("\n", 1)[0] ?? ""
}

/** The failure of a call that stopped the engine: kept it busy past its bound, or ended its process. */
function stopFailure(
  outcome: Extract<TaskOutcome, { kind: "timeout" | "exited" }>,
  input: FuzzInput,
): Failure & { code: "TOOL_TIMEOUT" | "TOOL_EXITED" } {
  if (outcome.kind === "timeout") {
    return {
      kind: "timeout",
      code: "TOOL_TIMEOUT" as const,
      message: `the call kept the engine busy past ${input.timeoutMs} ms and its abort signal never ran (a busy loop, or work that grows with an argument?); the engine was restarted`,
    }
  }
  const why = outcome.crash ?? (outcome.signal === undefined ? `exit code ${outcome.exitCode}` : outcome.signal)
  return {
    kind: "exit",
    code: "TOOL_EXITED" as const,
    message: `the call ended the engine's process (process.exit or a crash: ${why}); in opencode this ends opencode itself`,
  }
}
