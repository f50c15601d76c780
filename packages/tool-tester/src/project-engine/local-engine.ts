// A project's tools run in this process: the node engine, or tool-tester itself running in Bun
// (and an engine's process, for the projects it loaded). Each call lists the errors that escape
// while it runs or just after it returns: opencode prints them and keeps the call's result
// (docs/opencode-contract.md#escaped-errors).
import { builtinsAtCallStart, listChanges } from "../pipeline/builtins-between-calls.ts"
import { markFailed } from "../pipeline/call-record.ts"
import { executeCall } from "../pipeline/execute-call.ts"
import { modelOf, rulesOf } from "../pipeline/list-options.ts"
import { toolSchemas } from "../pipeline/tool-schemas.ts"
import { watchEscapes } from "../runtime/escaped-errors.ts"
import { exitedWith, watchExit } from "../runtime/exit-in-call.ts"
import { watchPendingWork } from "../runtime/pending-work.ts"
import { nextTurn, settle } from "../runtime/settle.ts"
import type { RunResult, ToolProject } from "../types.ts"
import { type ProjectEngine, projectClosed } from "./project-engine.ts"

export const localEngine: ProjectEngine = {
  run(project, target, options) {
    return listingEscapes(project, (start) =>
      "call" in target
        ? executeCall(project, target.call, undefined, options, start)
        : executeCall(project, { name: target.name, rawArguments: "" }, { parsed: target.args }, options, start),
    )
  },
  async schemas(project, options) {
    return toolSchemas(project, modelOf(options), rulesOf(project, options))
  },
  close() {},
}

/** The engine of a project that ran here and was closed (closeProject): every call fails, as under the bun engine. */
export const closedEngine: ProjectEngine = {
  run: () => Promise.reject(projectClosed()),
  schemas: () => Promise.reject(projectClosed()),
  doctor: () => Promise.reject(projectClosed()),
  close() {},
}

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
 * Runs a call here, listing the errors that escape while it runs or just after it returns.
 * After it returns, the call waits one turn of the event loop (for rejections its promises left),
 * and 10 ms more only when it left a timer or other work behind that could still throw. A one-shot
 * request it left (Node: a file read, a DNS lookup) is waited for first, up to REQUEST_BOUND_MS.
 * What that work changes of the built-ins meanwhile is the call's: TOOL_TAMPERED, put back.
 */
/** How long a call waits for a one-shot request it left (a file read, a lookup) to end. */
const REQUEST_BOUND_MS = 5_000

async function listingEscapes(
  project: ToolProject,
  call: (start: ReturnType<typeof builtinsAtCallStart>) => Promise<RunResult>,
): Promise<RunResult> {
  const start = builtinsAtCallStart(project)
  const watch = watchEscapes()
  const pending = watchPendingWork()
  const exit = watchExit()
  try {
    const result = await exit.run(() => call(start))
    await pending.requestsEnded(REQUEST_BOUND_MS)
    await nextTurn()
    if (pending.stop() || settleAlways) await settle()
    const changed = start.restore()
    if (changed.length > 0 && result.error?.code !== "TOOL_TAMPERED") tamperedAfterReturn(result, changed)
    const escaped = watch.stop()
    const exited = exit.stop()
    // opencode ended at the process.exit: nothing after it, the throw that stopped the tool included, is the call's.
    if (exited !== undefined) return exitedCall(result, exited.code)
    return escaped.length === 0 ? result : { ...result, escapedErrors: [...escaped] }
  } finally {
    pending.stop()
    watch.stop()
    exit.stop()
  }
}

/** TOOL_EXITED: the call's code called process.exit, which in opencode ends opencode (runtime/exit-in-call.ts). */
function exitedCall(result: RunResult, code: number): RunResult {
  const message = exitedWith(code)
  markFailed(result, "TOOL_EXITED", message, message)
  return result
}

/** TOOL_TAMPERED: what the call left running changed the built-ins after it returned. */
function tamperedAfterReturn(result: RunResult, changed: string[]): void {
  const list = listChanges(changed)
  markFailed(
    result,
    "TOOL_TAMPERED",
    `code the tool left running changed the engine's built-ins after its call returned (${list})`,
    `${result.id}: code it left running changed the engine's built-ins after its call returned (${list}); tools run in opencode's own process, so this breaks opencode itself: use functions of your own instead`,
  )
}
