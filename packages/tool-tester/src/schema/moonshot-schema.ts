// opencode's Moonshot/Kimi fixes (docs/opencode-contract.md#moonshot-fixes): Moonshot expands
// `$ref`s itself and rejects keys next to them, and does not take tuple-form `items`.
import { isRecord } from "../_is-record.ts"

/**
 * Recursively: a node with a string `$ref` becomes `{ $ref }` alone, and an `items` array
 * (tuple form) becomes its first element, or `{}` when empty.
 */
export function sanitizeMoonshotSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(sanitizeMoonshotSchema)
  if (!isRecord(schema)) return schema
  if (typeof schema.$ref === "string") return { $ref: schema.$ref }

  const result: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(schema)) {
    if (key === "items" && Array.isArray(value)) result.items = value.length > 0 ? sanitizeMoonshotSchema(value[0]) : {}
    else result[key] = sanitizeMoonshotSchema(value)
  }
  return result
}
