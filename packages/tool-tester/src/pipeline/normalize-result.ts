import { messageOfThrown } from "../errors.ts"
import { bunValueText } from "./bun-value-text.ts"
import { nonStringOutput } from "./non-string-output.ts"
import { copyFailure, jsonFailure } from "./opencode-copy.ts"

/**
 * A tool's result after opencode's normalisation (docs/opencode-contract.md#result-normalisation),
 * before truncation.
 */
export type NormalizedResult = {
  /** As the tool returned it: opencode records a non-string title as the tool's id (recordedTitle). */
  title: unknown
  output: string
  metadata: Record<string, unknown>
  attachments: unknown[] | undefined
}

/**
 * What opencode makes of the value `execute` resolved to. A string is the output; an object gives
 * `output`, `title`, `metadata`, `attachments`. Anything else fails inside opencode with a Bun
 * TypeError whose text is what the model reads: we return that text (observed on 1.18.34, minified
 * names included) plus a message that says what to fix.
 */
export function normalizeResult(
  result: unknown,
): { success: true; value: NormalizedResult } | { success: false; modelText: string; message: string } {
  if (typeof result === "string")
    return { success: true, value: { title: "", output: result, metadata: {}, attachments: undefined } }
  if (result === undefined || result === null) {
    return {
      success: false,
      modelText: `${result} is not an object (evaluating 'mo.output')`,
      message: `execute returned ${result}; return a string or { output: string }`,
    }
  }
  try {
    return normalizeObject(result as Record<string, unknown>)
  } catch (error) {
    // A getter or a Proxy trap that throws while opencode reads the result: the call fails with
    // that error, as if execute had thrown it.
    const text = thrownText(error)
    return {
      success: false,
      modelText: text,
      message: `reading the object execute returned threw: ${text}; return a plain string or { output: string } whose fields can be read`,
    }
  }
}

/**
 * An object's fields as opencode reads them, copied (metadata and attachments too): a getter runs
 * once, here. The order is opencode's (observed on 1.18.34: one getter that throws per field, the
 * first read failing the call): `output`, `metadata` (spread), `attachments`, then truncation of
 * `output` (nonStringOutput), `title`, the attachments' `map`, and last the copy that can end the run.
 */
function normalizeObject(
  record: Record<string, unknown>,
): { success: true; value: NormalizedResult } | { success: false; modelText: string; message: string } {
  const output = record["output"]
  const metadata = record["metadata"]
  // opencode spreads metadata into the part's: a string gives its characters as keys ("ab" is
  // {"0":"a","1":"b"}), a number or boolean nothing (observed on 1.18.34).
  const copied = metadata === undefined || metadata === null ? {} : { ...(metadata as Record<string, unknown>) }
  const attachments = record["attachments"]
  if (typeof output !== "string") return outputFailure(record, output)
  const title = record["title"]
  // opencode maps the attachments with `attachments?.map(...)`: anything but null, undefined or
  // something with a map method fails the call (observed on 1.18.34: a string, a number, an object).
  const map = attachments === undefined || attachments === null ? undefined : (attachments as { map?: unknown }).map
  if (attachments !== undefined && attachments !== null && typeof map !== "function") {
    return {
      success: false,
      modelText: `a.attachments?.map is not a function. (In 'a.attachments?.map((K)=>({...K,id:p.ascending(),sessionID:H.sessionID,messageID:e.processor.message.id}))', 'a.attachments?.map' is ${bunValueText(map)})`,
      message: `execute returned attachments that are ${describe(attachments)}; opencode needs an array of file parts`,
    }
  }
  // opencode then copies both before the model reads anything: what it cannot copy ends its whole
  // run (opencode-copy.ts).
  const copiedAttachments = attachmentsOf(attachments)
  for (const [name, value, original] of [
    ["metadata", copied, metadata],
    ["attachments", copiedAttachments, copiedAttachments],
  ] as const) {
    if (value === undefined) continue
    const failed = copyFailure(value, name, original)
    if (failed === undefined) continue
    const error = "opencodeError" in failed ? failed.opencodeError : thrownText(failed.thrown)
    return {
      success: false,
      modelText: `(no answer: opencode's run ended with "${error}")`,
      message: `execute returned ${failed.path}, ${failed.what}, which opencode cannot copy: it ends its whole run with "${error}" and the model gets no answer; keep metadata and attachments to plain data (strings, numbers, booleans, null, arrays and plain objects)`,
    }
  }
  return { success: true, value: { title, output, metadata: copied, attachments: copiedAttachments } }
}

/** The failure of a result whose `output` is not a string: opencode's truncation fails on it (nonStringOutput). */
function outputFailure(result: unknown, output: unknown): { success: false; modelText: string; message: string } {
  const outcome = nonStringOutput(output)
  // Described after opencode's own reads, so a Proxy's traps run in opencode's order.
  const what = typeof result === "object" ? `an object whose output is ${describe(output)}` : describe(result)
  const modelText = outcome.fails
    ? outcome.modelText
    : "(not modelled: opencode measured this output as bytes and passed it on as it is, not as text)"
  return {
    success: false,
    modelText,
    message: `execute returned ${what}; opencode needs a string or { output: string }: return String(value) or { output: String(value) }`,
  }
}

/**
 * The title opencode records for a call: the returned one when it is a string, `""` when there is
 * none, and the tool's id for any other value (a number, `false`, an object, a function: observed on
 * 1.18.34, where the part's title was the tool id).
 */
export function recordedTitle(title: unknown, toolId: string): string {
  if (title === undefined || title === null) return ""
  return typeof title === "string" ? title : toolId
}

function attachmentsOf(attachments: unknown): unknown[] | undefined {
  if (!Array.isArray(attachments)) return undefined
  return attachments.map((attachment) =>
    typeof attachment === "object" && attachment !== null ? { ...attachment } : attachment,
  )
}

/** The text the model reads when a tool throws: the message of an Error, the value of anything else. */
/** What was thrown, for the report: the model reads only its message (thrownText). */
export type ThrownDetails = {
  /** The class (`TypeError`, `MyError`), or the type of a non-Error value (`string`). */
  name: string
  message: string
  code?: string | number
  /** The cause, described the same way (one level deep is kept per cause, up to 5 causes). */
  cause?: ThrownDetails
  stack?: string
}

function thrownDetails(error: unknown, depth = 0): ThrownDetails {
  try {
    return readDetails(error, depth)
  } catch {
    // A Proxy whose traps throw, a getter that throws: nothing of it can be read.
    return { name: "Object", message: thrownText(error) }
  }
}

function readDetails(error: unknown, depth: number): ThrownDetails {
  if (typeof error !== "object" || error === null) return { name: typeof error, message: String(error) }
  const record = error as { name?: unknown; message?: unknown; code?: unknown; cause?: unknown; stack?: unknown }
  const details: ThrownDetails = {
    name: typeof record.name === "string" ? record.name : (error.constructor?.name ?? "Object"),
    message: thrownText(error),
  }
  if (typeof record.code === "string" || typeof record.code === "number") details.code = record.code
  if (record.cause !== undefined && depth < 5) details.cause = thrownDetails(record.cause, depth + 1)
  if (typeof record.stack === "string") details.stack = record.stack
  return details
}

/** What was thrown, read once: the text the model reads and the details the report keeps. */
export function readThrown(error: unknown): { text: string; details: ThrownDetails; endsRun?: string } {
  const read = modelErrorText(error)
  return "endsRun" in read
    ? { text: thrownText(error), details: thrownDetails(error), endsRun: read.endsRun }
    : { text: read.text, details: thrownDetails(error) }
}

/**
 * The text the model reads for a thrown value, as opencode 1.18.34 words it (observed with
 * `tool-tester e2e`, one thrown value per call): an Error's non-empty `message`, else its `name`
 * when the message is empty, null or undefined (`new Error("")` gives `Error`); any other object's
 * non-empty string `message`; else `String(value)`, except that an object that prints as
 * `[object Object]` is shown as `JSON.stringify(value, null, 2)` (`{ code: 5 }` gives that JSON on
 * three lines), and as `Error (no message)` when that JSON is `{}`. Where opencode itself fails on
 * the value, its whole run ends with that failure and the model gets no answer (`endsRun`): an
 * Error whose message is another kind of value (`Expected string, got 42`), a `String()` that
 * throws (a null prototype: Bun's "No default value"; a throwing toString or Proxy trap: its error),
 * a JSON.stringify that throws (a cycle, a BigInt: Bun's words).
 */
function modelErrorText(error: unknown): { text: string } | { endsRun: string } {
  try {
    if (error instanceof Error) {
      const { message, name } = error as { message: unknown; name: unknown }
      if (typeof message === "string" && message !== "") return { text: message }
      if (message === "" || message === undefined || message === null) return { text: String(name) }
      return { endsRun: `Expected string, got ${expectedText(message)}\n  at ["message"]` }
    }
    if (typeof error === "object" && error !== null && "message" in error) {
      const message = (error as { message: unknown }).message
      if (typeof message === "string" && message !== "") return { text: message }
    }
    const text = String(error)
    if (text !== "[object Object]") return { text }
    const unwritable = jsonFailure(error, "the thrown value")
    if (unwritable !== undefined && "opencodeError" in unwritable) return { endsRun: unwritable.opencodeError }
    const json = JSON.stringify(error, null, 2)
    if (json === undefined) return { text }
    return { text: json === "{}" ? "Error (no message)" : json }
  } catch (readError) {
    return { endsRun: primitiveFailure(error) ?? thrownText(readError) }
  }
}

/** How opencode's check of an error's message shows a value that is not a string: as JSON (`42`, `{"a":1}`, `true`). */
function expectedText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}

/** Bun's words when String() finds no way to make text of an object with a null prototype (Node says it otherwise). */
function primitiveFailure(value: unknown): string | undefined {
  try {
    if (typeof value !== "object" || value === null || Object.getPrototypeOf(value) !== null) return undefined
    const own = (key: PropertyKey) => Object.getOwnPropertyDescriptor(value, key) !== undefined
    return own("toString") || own("valueOf") || own(Symbol.toPrimitive) ? undefined : "No default value"
  } catch {
    return undefined
  }
}

export function thrownText(error: unknown): string {
  try {
    if (typeof error === "object" && error !== null && "message" in error && typeof error.message === "string")
      return error.message
    return String(error)
  } catch (readError) {
    // What opencode would print cannot be known either: say what happened instead.
    return `${UNREADABLE_THROWN} (reading it threw ${messageOfThrown(readError)})`
  }
}

/** What a thrown value whose properties throw when read (a hostile Proxy, a throwing getter) is reported as. */
const UNREADABLE_THROWN = "the tool threw a value that cannot be read"

// --- internal ---

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value)
  if (typeof value === "string") return "a string"
  if (value instanceof String) return "a String object (new String)"
  return typeof value === "object"
    ? Array.isArray(value)
      ? "an array"
      : "an object"
    : `a ${typeof value} (${String(value)})`
}
