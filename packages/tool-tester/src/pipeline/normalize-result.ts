import { messageOfThrown } from "../errors.ts"

/**
 * A tool's result after opencode's normalisation (docs/opencode-contract.md#result-normalisation),
 * before truncation.
 */
export type NormalizedResult = {
  title: string
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

/** An object's fields as opencode reads them, copied (metadata and attachments too): a getter runs once, here. */
function normalizeObject(
  record: Record<string, unknown>,
): { success: true; value: NormalizedResult } | { success: false; modelText: string; message: string } {
  const result = record
  const output = record["output"]
  if (typeof output !== "string") {
    const what = typeof result === "object" ? `an object whose output is ${describe(output)}` : describe(result)
    return {
      success: false,
      modelText:
        output === undefined || output === null
          ? `${output} is not an object (evaluating 'c.split')`
          : "c.split is not a function. (In 'c.split(`\n`)', 'c.split' is undefined)",
      message: `execute returned ${what}; opencode needs a string or { output: string }: return String(value) or { output }`,
    }
  }
  const metadata = record["metadata"]
  return {
    success: true,
    value: {
      // opencode keeps whatever `title` holds (`?? ""`), even a non-string.
      title: (record["title"] ?? "") as string,
      output,
      metadata: typeof metadata === "object" && metadata !== null ? { ...(metadata as Record<string, unknown>) } : {},
      attachments: attachmentsOf(record["attachments"]),
    },
  }
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
export function readThrown(error: unknown): { text: string; details: ThrownDetails } {
  return { text: thrownText(error), details: thrownDetails(error) }
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
  return typeof value === "object"
    ? Array.isArray(value)
      ? "an array"
      : "an object"
    : `a ${typeof value} (${String(value)})`
}
