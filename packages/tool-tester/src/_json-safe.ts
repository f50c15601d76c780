// Reports carry user values (tool metadata, arguments, schema internals). This writes them as JSON
// whatever they are and whatever the tool did to the engine: the built-ins it uses were kept
// before any user code ran (a tool may replace JSON.stringify or Array.prototype.map, or set
// Object.prototype.toJSON), and nesting is bounded, so a value a few thousand levels deep is cut
// with a marker instead of overflowing the stack.
import { pristineStringify } from "./_pristine.ts"

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

/**
 * A copy of `value` that JSON.stringify can always write, for reports about user values: cycles
 * become "[Circular]", bigints their digits with an `n`, functions and symbols are left out as
 * JSON.stringify leaves them, `toJSON` is honoured (but not one added to Object.prototype or
 * Array.prototype), what lies deeper than MAX_DEPTH levels becomes "[cut: deeper than 100 levels]",
 * and strings over MAX_STRING characters, arrays and objects over MAX_ITEMS entries end with a
 * "[cut: ...]" marker saying how much was left out.
 * Objects and arrays in the copy have no prototype, so nothing a tool adds to the built-in
 * prototypes changes how they are written.
 */
export function jsonSafe(value: unknown, ancestors: unknown[] = []): unknown {
  if (typeof value === "bigint") return `${value}n`
  if (typeof value === "string" && value.length > MAX_STRING) {
    return `${value.slice(0, MAX_STRING)}[cut: ${value.length - MAX_STRING} more characters]`
  }
  if (typeof value !== "object" || value === null) {
    return typeof value === "function" || typeof value === "symbol" ? undefined : value
  }
  for (let index = 0; index < ancestors.length; index++) if (ancestors[index] === value) return "[Circular]"
  if (ancestors.length >= MAX_DEPTH) return `[cut: deeper than ${MAX_DEPTH} levels]`
  const toJSON = ownToJSON(value)
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
  if (isArray(value)) {
    const copy: unknown[] = []
    // biome-ignore lint/complexity/useMathMinMax: a tool may replace Math; this file uses only the built-ins kept before it ran.
    const kept = value.length > MAX_ITEMS ? MAX_ITEMS : value.length
    for (let index = 0; index < kept; index++) copy[index] = jsonSafe(value[index], inside) ?? null
    if (kept < value.length) copy[kept] = `[cut: ${value.length - kept} more items]`
    return setPrototypeOf(copy, null)
  }
  const copy = create(null) as Record<string, unknown>
  const keys = ownKeys(value)
  // biome-ignore lint/complexity/useMathMinMax: a tool may replace Math; this file uses only the built-ins kept before it ran.
  const kept = keys.length > MAX_ITEMS ? MAX_ITEMS : keys.length
  if (kept < keys.length) copy["[cut]"] = `${keys.length - kept} more keys`
  for (let index = 0; index < kept; index++) {
    const key = keys[index]!
    const safe = jsonSafe((value as Record<string, unknown>)[key], inside)
    if (safe !== undefined) copy[key] = safe
  }
  return copy
}

/** `JSON.stringify(jsonSafe(value))`, with the JSON.stringify the engine had before any tool ran. */
export function safeStringify(value: unknown): string {
  return pristineStringify(jsonSafe(value)) ?? "null"
}

// --- internal ---

/** A toJSON of the value's own class (Date's, a user class's), not one planted on every object. */
function ownToJSON(value: object): unknown {
  let prototype: unknown = value
  while (prototype !== null && prototype !== undefined) {
    if (prototype === objectToJSON || prototype === arrayToJSON) return undefined
    const candidate = describe(prototype, "toJSON")
    if (candidate !== undefined) return candidate.value
    prototype = getPrototypeOf(prototype)
  }
  return undefined
}
