// The words every report uses for an error that escaped a tool outside the promise `execute`
// returns: `tool-tester run`, doctor's ESCAPED_ERROR, fuzz's `escaped` failures and the inspector
// (which bundles this file into its page: it imports nothing). What opencode does with such an
// error: docs/opencode-contract.md#escaped-errors.
import type { EscapedError } from "./escaped-errors.ts"

/** How it escaped: "a promise the tool left to reject", or a throw from a timer or an event handler. */
export function escapedHow(kind: EscapedError["kind"]): string {
  return kind === "unhandledRejection" ? "a promise the tool left to reject" : "thrown from a timer or an event handler"
}

/** What opencode does with it, and what to do about it. */
export function escapedAdvice(kind: EscapedError["kind"]): string {
  return kind === "unhandledRejection"
    ? "opencode prints it on stderr and keeps the call's result: await it or add a .catch"
    : "opencode prints it on stderr and keeps the call's result, and `opencode run` then exits 1: catch it inside the callback"
}

/** `MESSAGE: how; advice`, the line `tool-tester run` and the inspector show. */
export function escapedLine({ kind, message }: EscapedError): string {
  return `${message}: ${escapedHow(kind)}; ${escapedAdvice(kind)}`
}
