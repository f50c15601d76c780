// Compact one-line text for arguments and matchers in grade reasons and problems:
// `weather({city: /^par/i, units: "metric"})`, `bash({command: "curl wttr.in/Paris"})`. Keys that
// are identifiers are written bare, strings are JSON-quoted and cut, deep or long values are cut
// with "…", so a reason always fits one line.
import type { ArgsMatcher, ValueMatcher } from "./types.ts"

const STRING_LIMIT = 60
const DEPTH_LIMIT = 4
const ITEMS_LIMIT = 6

/** A value the model sent (JSON-like), as one short line. */
export function formatValue(value: unknown, limit = 120): string {
  return cut(render(value, 0, false), limit)
}

/** A matcher as written in a case, as one short line (`/^par/i`, `any`, `exactly {a: 1}`, `isParis`, `predicate`). */
export function formatMatcher(matcher: ValueMatcher | ArgsMatcher, limit = 120): string {
  return cut(render(matcher, 0, true), limit)
}

/** `tool(args)`, or `tool` alone when no arguments are given or expected. */
export function formatCall(tool: string, args: unknown, options: { matcher?: boolean; limit?: number } = {}): string {
  if (args === undefined) return tool
  const limit = options.limit ?? 120
  const text = options.matcher ? formatMatcher(args as ValueMatcher, limit) : formatValue(args, limit)
  return `${tool}(${text})`
}

/** Text cut to `limit` characters (with "…"), whitespace runs (newlines included) made one space. */
export function cut(text: string, limit: number): string {
  const flat = text.replace(/\s+/g, " ").trim()
  return flat.length <= limit ? flat : `${flat.slice(0, Math.max(0, limit - 1))}…`
}

// --- internal ---

function render(value: unknown, depth: number, matcher: boolean, key?: string): string {
  if (value === null) return "null"
  if (value === undefined) return "undefined"
  if (typeof value === "string") return quote(value)
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value)
  // An arrow function in an object literal is named after its key: only a name of its own is shown.
  if (typeof value === "function")
    return matcher && value.name && value.name !== key ? value.name : matcher ? "predicate" : "[function]"
  if (typeof value === "symbol") return value.toString()
  if (value instanceof RegExp) return String(value)
  if (depth >= DEPTH_LIMIT) return Array.isArray(value) ? "[…]" : "{…}"
  if (Array.isArray(value)) {
    const items = value.slice(0, ITEMS_LIMIT).map((item) => render(item, depth + 1, matcher))
    if (value.length > ITEMS_LIMIT) items.push("…")
    return `[${items.join(", ")}]`
  }
  if (typeof value === "object") {
    const record = value as Record<string, unknown>
    if (matcher) {
      const special = renderSpecial(record, depth)
      if (special !== undefined) return special
    }
    const keys = Object.keys(record)
    const entries = keys
      .slice(0, ITEMS_LIMIT)
      .map((key) => `${renderKey(key)}: ${render(record[key], depth + 1, matcher, key)}`)
    if (keys.length > ITEMS_LIMIT) entries.push("…")
    return `{${entries.join(", ")}}`
  }
  return String(value)
}

function renderSpecial(record: Record<string, unknown>, depth: number): string | undefined {
  const keys = Object.keys(record)
  if (keys.includes("$regex") && typeof record["$regex"] === "string") {
    const flags = typeof record["$flags"] === "string" ? record["$flags"] : ""
    return `/${record["$regex"]}/${flags}`
  }
  if (keys.length === 1 && keys[0] === "$any") return "any"
  if (keys.length === 1 && keys[0] === "$exact") return `exactly ${render(record["$exact"], depth + 1, false)}`
  return undefined
}

function renderKey(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : JSON.stringify(key)
}

function quote(text: string): string {
  return JSON.stringify(text.length > STRING_LIMIT ? `${text.slice(0, STRING_LIMIT - 1)}…` : text)
}
