// The longest wait a timeout can ask for, shared by the CLI's flags (cli/number-flag.ts) and the
// library's options (runTool, fuzzTool, runE2E, evalSuite), so both refuse the same bounds.
import { ToolTesterError } from "./errors.ts"

/**
 * The longest bound a timeout takes, in milliseconds (about 23 days). Node and Bun keep a timer's
 * delay in 32 bits: a longer one (2^31 ms and up) fires at once, so a bound past it would end every
 * call as a timeout. This leaves room below that for the grace periods added to a bound.
 */
export const MAX_TIMEOUT_MS = 2_000_000_000

/**
 * Refuses a library option that a timer cannot wait for (USAGE naming the option): anything but a
 * number above 0 and at most {@link MAX_TIMEOUT_MS}. Undefined (no bound, or the default) passes.
 */
export function checkTimeoutOption(option: string, value: unknown): void {
  if (value === undefined) return
  if (typeof value === "number" && value > 0 && value <= MAX_TIMEOUT_MS) return
  const given = typeof value === "string" ? JSON.stringify(value) : String(value)
  throw new ToolTesterError(
    "USAGE",
    `${option} must be a number of milliseconds above 0 and at most ${MAX_TIMEOUT_MS} (about 23 days: Node and Bun fire a longer timer at once), not ${given}`,
    { data: { option } },
  )
}
