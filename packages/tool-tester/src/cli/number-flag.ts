// The numbers a command line gives (counts, seeds, bounds in milliseconds): one reading for every
// command, so each refuses the same text with the same USAGE line.
import { MAX_TIMEOUT_MS } from "../_timeout-bound.ts"
import { ToolTesterError } from "../errors.ts"

/** `text` as a whole number of at least `minimum` (1 by default), or USAGE naming the flag. */
export function wholeNumberFlag(flag: string, text: string, minimum = 1): number {
  const number = Number(text)
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(number) || number < minimum) {
    // Past 2^53 a number is no longer exact: the largest is named, not just the smallest.
    const range =
      /^\d+$/.test(text.trim()) && number > minimum
        ? `from ${minimum} to ${Number.MAX_SAFE_INTEGER}`
        : `of at least ${minimum}`
    throw new ToolTesterError("USAGE", `${flag} needs a whole number ${range}, not "${text}"`)
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
