// After a tool returns, a run waits before it reports: an error the tool lets escape just after (a
// promise it left to reject, a throw from a timer it set) is listed on the result, as the same
// escape just before returning is (docs/opencode-contract.md#escaped-errors). Every call waits one
// turn of the event loop; only a call that left work behind (pending-work.ts) waits 10 ms more.

import { wait } from "./pending-work.ts"

/** Long enough for timers of 0-1 ms and for unhandled rejections to be noticed. */
const SETTLE_MS = 10

/**
 * One turn of the event loop: the promise jobs and nextTicks the call left have all run, and a
 * rejection none of them handled has been reported (Node and Bun report those before the
 * immediates; Bun not always before a timer of 0 ms).
 */
export function nextTurn(): Promise<void> {
  return wait()
}

/** The wait of a call that left work behind: 10 ms, then one more turn of the event loop. */
export async function settle(): Promise<void> {
  await wait(SETTLE_MS)
  // Then one more turn: on a loaded machine the tool's own timer can run in the same turn as this
  // wait's, and the rejection it leaves is reported only after that turn.
  await nextTurn()
}
