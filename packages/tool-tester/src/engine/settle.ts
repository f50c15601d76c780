// After a tool returns, a run waits a moment before it reports: an error the tool lets escape just
// after (from a timer it set, or a promise it left to reject) is listed on the result, as the same
// escape just before returning is (docs/opencode-contract.md#escaped-errors).

import { PristinePromise, pristineSetTimeout } from "../_pristine.ts"

/** Long enough for timers of 0-1 ms and for unhandled rejections to be noticed. */
export const SETTLE_MS = 10

export async function settle(): Promise<void> {
  // The built-ins kept before any tool ran: a tool that replaced them in a timer must not break the wait.
  await new PristinePromise((resolve) => pristineSetTimeout(resolve, SETTLE_MS))
  // Then one more turn of the event loop: on a loaded machine the tool's own timer can run in the
  // same turn as this wait's, and the rejection it leaves is reported only after that turn.
  await new PristinePromise((resolve) => pristineSetTimeout(resolve, 0))
}
