// Reports carry user values (tool metadata, arguments, schema internals). This writes them as JSON
// whatever they are and whatever the tool did to the engine: the built-ins it uses were kept
// before any user code ran (a tool may replace JSON.stringify or Array.prototype.map, or set
// Object.prototype.toJSON), and nesting is bounded, so a value a few thousand levels deep is cut
// with a marker instead of overflowing the stack. Reading the value runs the tool's code (a getter,
// a Proxy's traps) and may throw: what cannot be read becomes a marker too, so writing a report
// never fails.
import { stringifyKeepingNegativeZero } from "./_negative-zero-json.ts"

/** Deeper than this, a value is replaced by a marker string. */
export const MAX_DEPTH = 100
/** Longer strings are cut, with a marker saying how much was left out (UTF-16 code units). */
export const MAX_STRING = 16 * 1024 * 1024
/** Arrays and objects keep this many items or keys, then a marker. */
export const MAX_ITEMS = 100_000

const isArray = Array.isArray
const ownKeys = Object.keys
const setPrototypeOf = Object.setPrototypeOf
const create = Object.create
const objectToJSON = Object.prototype
const arrayToJSON = Array.prototype
const getPrototypeOf = Object.getPrototypeOf
const describe = Object.getOwnPropertyDescriptor
const apply = Reflect.apply
const toText = String

/**
 * A copy of `value` that JSON.stringify can always write, for reports about user values: cycles
 * become "[Circular]", bigints their digits with an `n`, functions and symbols are left out as
 * JSON.stringify leaves them, `toJSON` is honoured (but not one added to Object.prototype or
 * Array.prototype), what lies deeper than MAX_DEPTH levels becomes "[cut: deeper than 100 levels]",
 * and strings over MAX_STRING characters, arrays and objects over MAX_ITEMS entries end with a
 * "[cut: ...]" marker saying how much was left out. A value whose reading throws (a getter, a
 * Proxy's trap, a revoked Proxy) becomes "[threw when read: <the error's message>]", so this never
 * throws.
 * Objects and arrays in the copy have no prototype, so nothing a tool adds to the built-in
 * prototypes changes how they are written.
 */
export function jsonSafe(value: unknown, ancestors: unknown[] = []): unknown {
  if (typeof value === "bigint") return `${value}n`
  if (typeof value === "string") return cutString(value)
  if (typeof value !== "object" || value === null) {
    return typeof value === "function" || typeof value === "symbol" ? undefined : value
  }
  for (let index = 0; index < ancestors.length; index++) if (ancestors[index] === value) return "[Circular]"
  if (ancestors.length >= MAX_DEPTH) return `[cut: deeper than ${MAX_DEPTH} levels]`
  // A Proxy's traps run on every read below, a revoked Proxy throws on all of them.
  let toJSON: unknown
  let array: boolean
  try {
    toJSON = ownToJSON(value)
    array = isArray(value)
  } catch (error) {
    return unreadable(error)
  }
  if (typeof toJSON === "function") {
    try {
      return jsonSafe(apply(toJSON, value, []), ancestors)
    } catch {
      return "[toJSON threw]"
    }
  }
  const inside: unknown[] = []
  for (let index = 0; index < ancestors.length; index++) inside[index] = ancestors[index]
  inside[ancestors.length] = value
  if (array) {
    const items = value as unknown as Record<string | number, unknown>
    let rawLength: unknown
    try {
      rawLength = items["length"]
    } catch (error) {
      return unreadable(error)
    }
    // A Proxy's `get` trap may answer anything; comparing an object would run its valueOf.
    const length = typeof rawLength === "number" ? rawLength : 0
    const copy: unknown[] = []
    // biome-ignore lint/complexity/useMathMinMax: a tool may replace Math; this file uses only the built-ins kept before it ran.
    const kept = length > MAX_ITEMS ? MAX_ITEMS : length
    for (let index = 0; index < kept; index++) copy[index] = jsonSafe(read(items, index), inside) ?? null
    if (kept < length) copy[kept] = `[cut: ${length - kept} more items]`
    return setPrototypeOf(copy, null)
  }
  let keys: string[]
  try {
    keys = ownKeys(value)
  } catch (error) {
    return unreadable(error)
  }
  const copy = create(null) as Record<string, unknown>
  // biome-ignore lint/complexity/useMathMinMax: a tool may replace Math; this file uses only the built-ins kept before it ran.
  const kept = keys.length > MAX_ITEMS ? MAX_ITEMS : keys.length
  if (kept < keys.length) copy["[cut]"] = `${keys.length - kept} more keys`
  for (let index = 0; index < kept; index++) {
    const key = keys[index]!
    const safe = jsonSafe(read(value as Record<string, unknown>, key), inside)
    if (safe !== undefined) copy[key] = safe
  }
  return copy
}

/**
 * `JSON.stringify(jsonSafe(value))`, with the JSON.stringify the engine had before any tool ran,
 * and -0 written as -0 (a tool's arguments can hold it: the report says what the tool got).
 */
export function safeStringify(value: unknown): string {
  return stringifyKeepingNegativeZero(jsonSafe(value)) ?? "null"
}

// --- internal ---

/** A string as the report keeps it: its first MAX_STRING characters, then a marker. */
function cutString(value: string): string {
  return value.length > MAX_STRING
    ? `${value.slice(0, MAX_STRING)}[cut: ${value.length - MAX_STRING} more characters]`
    : value
}

/** `holder[key]`, or the {@link unreadable} marker when the read throws (a getter, a Proxy's `get` trap). */
function read(holder: Record<string | number, unknown>, key: string | number): unknown {
  try {
    return holder[key]
  } catch (error) {
    return unreadable(error)
  }
}

/** "[threw when read: <message>]": the message of what a read threw, itself read without throwing. */
function unreadable(error: unknown): string {
  let message: string
  try {
    const text = typeof error === "object" && error !== null ? (error as { message?: unknown }).message : undefined
    message = typeof text === "string" ? text : toText(error)
  } catch {
    message = "a value that cannot be read"
  }
  return `[threw when read: ${cutString(message)}]`
}

/** A toJSON of the value's own class (Date's, a user class's), not one planted on every object. */
function ownToJSON(value: object): unknown {
  let prototype: unknown = value
  // Bounded: a Proxy's getPrototypeOf trap can make the chain endless.
  for (let step = 0; step < MAX_DEPTH && prototype !== null && prototype !== undefined; step++) {
    if (prototype === objectToJSON || prototype === arrayToJSON) return undefined
    const candidate = describe(prototype, "toJSON")
    if (candidate !== undefined) return candidate.value
    prototype = getPrototypeOf(prototype)
  }
  return undefined
}
