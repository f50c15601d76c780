/**
 * A copy of `value` that JSON.stringify can always write, for reports about user values (tool
 * metadata, schema internals): cycles become "[Circular]", bigints their digits with an `n`,
 * functions and symbols are left out as JSON.stringify leaves them, `toJSON` is honoured.
 */
export function jsonSafe(value: unknown, ancestors: unknown[] = []): unknown {
  if (typeof value === "bigint") return `${value}n`
  if (typeof value !== "object" || value === null) {
    return typeof value === "function" || typeof value === "symbol" ? undefined : value
  }
  if (ancestors.includes(value)) return "[Circular]"
  const toJSON = (value as { toJSON?: unknown }).toJSON
  if (typeof toJSON === "function") {
    try {
      return jsonSafe(toJSON.call(value), ancestors)
    } catch {
      return String(value)
    }
  }
  const inside = [...ancestors, value]
  if (Array.isArray(value)) return value.map((item) => jsonSafe(item, inside) ?? null)
  const copy: Record<string, unknown> = {}
  for (const [key, child] of Object.entries(value)) {
    const safe = jsonSafe(child, inside)
    if (safe !== undefined) copy[key] = safe
  }
  return copy
}
