import { projectClientOf } from "./client/project-client.ts"
import { watchEscapes } from "./runtime/escaped-errors.ts"
import { remoteEngineOf } from "./engine-client/remote-project.ts"
import { watchPendingWork } from "./runtime/pending-work.ts"
import { nextTurn, settle } from "./runtime/settle.ts"
import { executeCall } from "./pipeline/execute-call.ts"
import type { RawToolCall } from "./pipeline/repair-call.ts"
import type { RunOptions, RunResult, ToolProject } from "./types.ts"

export type { RunOptions, RunResult } from "./types.ts"

/** Runs a tool by name with arguments already parsed, as opencode runs a model's call. */
export function runTool(
  project: ToolProject,
  name: string,
  args: unknown,
  options: RunOptions = {},
): Promise<RunResult> {
  const remote = remoteEngineOf(project)
  if (remote) return remote.run(project, { name, args }, options)
  return listingEscapes(() => executeCall(project, { name, rawArguments: "" }, { parsed: args }, options))
}

/**
 * Runs a model's raw call (name + argument text) through opencode's repair first: wrong case fixed,
 * unknown names and unparsable JSON rerouted to `invalid`.
 */
export function callTool(project: ToolProject, call: RawToolCall, options: RunOptions = {}): Promise<RunResult> {
  const remote = remoteEngineOf(project)
  if (remote) return remote.run(project, { call }, options)
  return listingEscapes(() => executeCall(project, call, undefined, options))
}

/**
 * Ends the bun engine's process of a project and everything its tools started. Optional: the
 * engine never keeps the process alive, and ends with it. Does nothing under the node engine.
 */
export function closeProject(project: ToolProject): void {
  remoteEngineOf(project)?.close()
  projectClientOf(project)?.stop()
}

// --- internal ---

/** Set by the CLI's `run` in its engine: its one call always waits the 10 ms. */
let settleAlways = false

/**
 * Makes every call of this process wait the full 10 ms after it returns, whatever it left behind:
 * for `tool-tester run`, whose one call also lists an escape from work the engine cannot follow
 * (Bun's I/O callbacks), as opencode prints it (docs/opencode-contract.md#escaped-errors).
 */
export function settleEveryCall(): void {
  settleAlways = true
}

/**
 * Runs a call here, listing the errors that escape while it runs or just after it returns:
 * opencode prints them and keeps the call's result (docs/opencode-contract.md#escaped-errors).
 * After it returns, the call waits one turn of the event loop (for rejections its promises left),
 * and 10 ms more only when it left a timer or other work behind that could still throw.
 */
async function listingEscapes(call: () => Promise<RunResult>): Promise<RunResult> {
  const watch = watchEscapes()
  const pending = watchPendingWork()
  try {
    const result = await call()
    await nextTurn()
    if (pending.stop() || settleAlways) await settle()
    const escaped = watch.stop()
    return escaped.length === 0 ? result : { ...result, escapedErrors: [...escaped] }
  } finally {
    pending.stop()
    watch.stop()
  }
}
