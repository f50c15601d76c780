// The numbers a command line gives (counts, seeds, bounds in milliseconds): one reading for every
// command, so each refuses the same text with the same USAGE line.
import { ToolTesterError } from "../errors.ts"

/**
 * The longest bound a timeout flag takes, in milliseconds (about 23 days). Node and Bun keep a
 * timer's delay in 32 bits: a longer one (2^31 ms and up) fires at once, so a bound past it would
 * end every call as a timeout. This leaves room below that for the grace periods added to a bound.
 */
const MAX_TIMEOUT_MS = 2_000_000_000

/** `text` as a whole number of at least `minimum` (1 by default), or USAGE naming the flag. */
export function wholeNumberFlag(flag: string, text: string, minimum = 1): number {
  const number = Number(text)
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(number) || number < minimum) {
    throw new ToolTesterError("USAGE", `${flag} needs a whole number of at least ${minimum}, not "${text}"`)
  }
  return number
}

/** `text` as a bound in milliseconds, from 1 to {@link MAX_TIMEOUT_MS}, or USAGE naming the flag. */
export function timeoutFlag(flag: string, text: string): number {
  const number = Number(text)
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(number) || number < 1 || number > MAX_TIMEOUT_MS) {
    throw new ToolTesterError(
      "USAGE",
      `${flag} needs a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS} (about 23 days), not "${text}"`,
    )
  }
  return number
}
