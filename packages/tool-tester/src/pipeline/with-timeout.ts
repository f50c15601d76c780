import { ToolTesterError } from "../errors.ts"
import { opencodeAbortReason } from "./opencode-abort.ts"

// As they were when the pipeline loaded: a caller's fake timers (`vi.useFakeTimers()`, in the
// library's own process) or a tool's replacement must not hold back the bound.
const startTimer = setTimeout
const stopTimer = clearTimeout

/**
 * Told of each call whose tool was still running at its timeout, with the caller's signal (which
 * names the call) and the tool's own promise: the bun engine watches whether the tool stops after
 * its abort signal, and is ended when it does not (engine/serve.ts). In-process, nobody listens.
 */
export const timeoutEvents: {
  onTimedOut: ((callerSignal: AbortSignal | undefined, tool: Promise<unknown>) => void) | undefined
} = { onTimedOut: undefined }

/**
 * Waits for a tool at most `timeoutMs`: then fires its abort signal and fails with TOOL_TIMEOUT.
 * In-process the tool cannot be killed; the CLI runs tools in a worker it can stop.
 */
export async function withTimeout<T>(
  promise: Promise<T>,
  timeoutMs: number | undefined,
  controller: AbortController,
): Promise<T> {
  if (timeoutMs === undefined) return promise
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = startTimer(() => {
      controller.abort(opencodeAbortReason())
      reject(
        new ToolTesterError(
          "TOOL_TIMEOUT",
          `the tool did not finish within ${timeoutMs} ms; its abort signal was fired`,
        ),
      )
    }, timeoutMs)
  })
  try {
    return await Promise.race([promise, timeout])
  } finally {
    stopTimer(timer)
  }
}
