// Which call results are failures worth reporting when fuzzing. A tool that throws an Error of its
// own ("city is required") is rejecting bad input on purpose; the model reads the message and can
// retry. A TypeError, ReferenceError or RangeError thrown by the engine is a bug the input reached
// (reading a property of undefined), and so is a result opencode cannot send, a timeout, or a tool
// that ends or breaks the process. So is an error that escaped the call (a promise left to reject,
// a throw in a timer): opencode prints it and keeps the call's result, but it is a bug the input
// reached, and after a throw in a timer `opencode run` exits 1 (docs/opencode-contract.md#escaped-errors).
import { escapedAdvice, escapedHow } from "../runtime/escaped-advice.ts"
import type { RunResult } from "../types.ts"

export type FailureKind = "crash" | "bad-result" | "timeout" | "exit" | "escaped"

export type Failure = {
  kind: FailureKind
  /** The error code of the call (TOOL_THREW, TOOL_BAD_RESULT, TOOL_TIMEOUT, ...), ESCAPED_ERROR for an escaped error. */
  code: string
  /** What was thrown or why the call failed, in one line. */
  message: string
  /** The class thrown, for crashes. */
  thrown?: string
}

const ENGINE_ERRORS = new Set(["TypeError", "ReferenceError", "RangeError", "SyntaxError", "InternalError", "URIError"])

/**
 * The failure this result shows, or undefined when the call completed or failed on purpose, and
 * no error escaped it. The call's own failure comes first: an escaped error is reported when the
 * call has none (a tool that refuses bad input on purpose can still leak a rejection).
 */
export function failureOf(result: RunResult): Failure | undefined {
  return callFailure(result) ?? escapedFailure(result)
}

function escapedFailure(result: RunResult): Failure | undefined {
  const [escaped] = result.escapedErrors ?? []
  if (escaped === undefined) return undefined
  return {
    kind: "escaped",
    code: "ESCAPED_ERROR",
    message: `${firstLine(escaped.message)} escaped the call (${escapedHow(escaped.kind)}); ${escapedAdvice(escaped.kind)}`,
  }
}

function callFailure(result: RunResult): Failure | undefined {
  const error = result.error
  if (result.status === "completed" || error === undefined) return undefined
  switch (error.code) {
    case "TOOL_THREW": {
      const name = error.thrown?.name ?? "Error"
      if (!ENGINE_ERRORS.has(name)) return undefined
      return {
        kind: "crash",
        code: error.code,
        message: firstLine(error.thrown?.message ?? error.message),
        thrown: name,
      }
    }
    case "TOOL_BAD_RESULT":
      return { kind: "bad-result", code: error.code, message: firstLine(error.message) }
    case "TOOL_TIMEOUT":
      return { kind: "timeout", code: error.code, message: firstLine(error.message) }
    case "TOOL_EXITED":
    case "TOOL_TAMPERED":
    case "ENGINE_FAILED":
    case "CHANNEL_FORGED":
    case "CHANNEL_CLOSED":
      return { kind: "exit", code: error.code, message: firstLine(error.message) }
    default:
      return undefined
  }
}

/**
 * A number as a message quotes it: its sign, decimals and exponent belong to it (`Received
 * -5e-324`, `Received 0.000001`), as do the underscores Node groups digits with (`Received
 * 4_294_967_296`), and Infinity and NaN are numbers too. Matching the digits alone left `-` and
 * `e-` in the key, so the same failure counted once per spelling of the value.
 */
const QUOTED_NUMBER = /[-+]?(?:\d+(?:_\d+)*(?:\.\d+)?(?:[eE][-+]?\d+)?|\bInfinity\b)|\bNaN\b/g

/** Failures that differ only in the values quoted or counted in their message are one failure. */
export function failureKey(failure: Failure): string {
  const shape = failure.message
    .replace(/(["'`]).*?\1/g, "<text>")
    .replace(QUOTED_NUMBER, "<n>")
    .slice(0, 200)
  return `${failure.kind} ${failure.code} ${failure.thrown ?? ""} ${shape}`
}

function firstLine(text: string): string {
  const [line = ""] = text.split("\n")
  return line.length > 300 ? `${line.slice(0, 297)}...` : line
}
