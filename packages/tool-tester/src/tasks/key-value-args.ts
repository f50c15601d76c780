import { ToolTesterError } from "../errors.ts"

/**
 * Arguments from `key=value` pairs, each value read as the tool's JSON Schema says: a number written
 * as JSON writes it where the property is a number or integer, `true`/`false` for a boolean, JSON for an array or object,
 * the text as it is otherwise (and for keys the schema does not list). The first `=` splits, so
 * values may contain `=`. A later pair with the same key wins.
 */
export function argsFromPairs(pairs: readonly string[], schema: unknown): Record<string, unknown> {
  const properties = propertiesOf(schema)
  const args: Record<string, unknown> = {}
  for (const pair of pairs) {
    const separator = pair.indexOf("=")
    if (separator <= 0) {
      throw new ToolTesterError("USAGE", `"${pair}" is not a key=value pair; write name=value, or use --args JSON`)
    }
    const key = pair.slice(0, separator)
    const property = Object.hasOwn(properties, key) ? properties[key] : undefined
    // Defined, not assigned: `__proto__` is a key like any other (JSON.parse makes it one too).
    Object.defineProperty(args, key, {
      value: coerce(key, pair.slice(separator + 1), property),
      enumerable: true,
      writable: true,
      configurable: true,
    })
  }
  return args
}

/**
 * The `key=value` pairs that give back exactly `args`, for a command to print: only when every
 * value is a string of letters, digits and `_ . / : -`, which every shell (sh, cmd.exe, PowerShell)
 * passes as it is, and which stays text wherever the schema accepts a string; none for `{}` (run
 * with no arguments passes `{}`). Else undefined (print `--args JSON`).
 */
export function pairsFor(args: unknown): string[] | undefined {
  if (typeof args !== "object" || args === null || Array.isArray(args)) return undefined
  const entries = Object.entries(args)
  const pairs: string[] = []
  for (const [key, value] of entries) {
    if (!/^[A-Za-z_][\w-]*$/.test(key) || typeof value !== "string" || !/^[\w./:-]+$/.test(value)) return undefined
    pairs.push(`${key}=${value}`)
  }
  return pairs
}

/**
 * Whether the pair `key=text` gives the tool `text` itself whatever its schema says (or is refused):
 * no property type reads the text as anything else. Only such text is the same call written as
 * `--args {"key":"text"}`, so a command offers that form beside the pair only then. Asked of the
 * reading itself, type by type, so the two can never disagree.
 */
export function textUnderEverySchema(text: string): boolean {
  return EVERY_TYPE.every((property) => {
    try {
      return coerce("key", text, property) === text
    } catch {
      return true
    }
  })
}

// --- internal ---

/** A property of every JSON type the reading knows (a schema combining them reads a text as one of these does). */
const EVERY_TYPE = ["string", "number", "integer", "boolean", "null", "array", "object"].map((type) => ({ type }))

type Kind = "string" | "number" | "integer" | "boolean" | "json" | "null"

/** A number as JSON writes it (RFC 8259, section 6), which is what `JSON.parse` of a model's call reads. */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/

function coerce(key: string, text: string, property: unknown): unknown {
  const kinds = kindsOf(property)
  if (kinds.has("null") && text === "null") return null
  // Text stays text wherever the schema accepts a string (or says nothing).
  if (kinds.size === 0 || kinds.has("string")) return text
  if (kinds.has("number") || kinds.has("integer")) {
    // Only JSON's spelling of a number, as a model's call holds it: `0x10`, `1_000`, `+5`, `.5`,
    // `Infinity` or padded text are not numbers there, so they are not here either.
    const number = JSON_NUMBER.test(text) ? Number(text) : Number.NaN
    if (!Number.isNaN(number) && (!kinds.has("integer") || kinds.has("number") || Number.isInteger(number)))
      return number
    if (!kinds.has("boolean") && !kinds.has("json"))
      throw unparsable(
        key,
        text,
        kinds.has("number") ? "a number, written as JSON (5, -2.5, 1e3)" : "an integer, written as JSON (5, -2)",
      )
  }
  if (kinds.has("boolean")) {
    if (text === "true") return true
    if (text === "false") return false
    if (!kinds.has("json")) throw unparsable(key, text, "true or false")
  }
  try {
    return JSON.parse(text)
  } catch {
    throw unparsable(key, text, "JSON (an array or object)")
  }
}

/** The JSON types a property accepts, looking through `type` arrays and one level of anyOf/oneOf/allOf. */
function kindsOf(property: unknown, depth = 0): Set<Kind> {
  const kinds = new Set<Kind>()
  if (typeof property !== "object" || property === null || depth > 3) return kinds
  const record = property as Record<string, unknown>
  const types = Array.isArray(record["type"]) ? record["type"] : [record["type"]]
  for (const type of types) {
    if (type === "array" || type === "object") kinds.add("json")
    else if (type === "string" || type === "number" || type === "integer" || type === "boolean" || type === "null")
      kinds.add(type)
  }
  for (const value of [...(asArray(record["enum"]) ?? []), ...("const" in record ? [record["const"]] : [])]) {
    kinds.add(typeof value === "number" ? "number" : typeof value === "boolean" ? "boolean" : "string")
  }
  for (const combiner of ["anyOf", "oneOf", "allOf"]) {
    for (const member of asArray(record[combiner]) ?? []) for (const kind of kindsOf(member, depth + 1)) kinds.add(kind)
  }
  return kinds
}

function propertiesOf(schema: unknown): Record<string, unknown> {
  if (typeof schema !== "object" || schema === null) return {}
  const properties = (schema as Record<string, unknown>)["properties"]
  return typeof properties === "object" && properties !== null ? (properties as Record<string, unknown>) : {}
}

function asArray(value: unknown): unknown[] | undefined {
  return Array.isArray(value) ? value : undefined
}

function unparsable(key: string, text: string, expected: string): ToolTesterError {
  return new ToolTesterError(
    "ARGS_UNPARSABLE",
    `${key}=${text}: the tool's schema says ${key} is ${expected}; fix the value, or pass exact JSON with --args`,
    { data: { key, value: text } },
  )
}
