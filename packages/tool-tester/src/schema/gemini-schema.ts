// opencode's Gemini fixes (docs/opencode-contract.md#gemini-fixes): Gemini accepts
// only string enums, no type arrays, and wants every array to say what its items are.
import { isRecord } from "../_is-record.ts"

const combiners = ["anyOf", "oneOf", "allOf"]
/** Keywords that say what a schema accepts: `items` with none of them become `{type: "string"}`. */
const schemaIntentKeys = [
  "type",
  "properties",
  "items",
  "prefixItems",
  "enum",
  "const",
  "$ref",
  "additionalProperties",
  "patternProperties",
  "required",
  "not",
  "if",
  "then",
  "else",
  ...combiners,
]

/**
 * Apply the Gemini fixes to every node, recursively:
 * - `enum` values become strings, and a `number`/`integer` type written BEFORE `enum` becomes
 *   `"string"` (one written after it is left alone, as in opencode);
 * - a type array becomes `anyOf` of one `{type}` per non-null type, plus `nullable: true` when
 *   `null` was in it (a lone `null` stays `type: "null"`);
 * - an object's `required` keeps only keys present in `properties`;
 * - an array without a combiner gets `items` (`{}` when missing), and `type: "string"` in `items`
 *   when they say nothing about what they accept;
 * - a node of a non-object type without a combiner loses `properties` and `required`.
 */
export function sanitizeGeminiSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(sanitizeGeminiSchema)
  if (!isRecord(schema)) return schema

  const result: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(schema)) {
    if (key === "enum" && Array.isArray(value)) {
      result.enum = value.map(String)
      if (result.type === "integer" || result.type === "number") result.type = "string"
    } else {
      result[key] = sanitizeGeminiSchema(value)
    }
  }

  if (Array.isArray(result.type)) replaceTypeArray(result, result.type)
  const hasCombiner = combiners.some((combiner) => combiner in result)

  if (result.type === "object" && isRecord(result.properties) && Array.isArray(result.required)) {
    const properties = result.properties
    result.required = result.required.filter((key) => typeof key === "string" && Object.hasOwn(properties, key))
  }
  if (result.type === "array" && !hasCombiner) {
    if (result.items === undefined || result.items === null) result.items = {}
    const items = result.items
    if (isRecord(items) && !schemaIntentKeys.some((key) => key in items)) result.items = { ...items, type: "string" }
  }
  if (typeof result.type === "string" && result.type !== "object" && !hasCombiner) {
    delete result.properties
    delete result.required
  }
  return result
}

// --- internal ---

function replaceTypeArray(node: Record<string, unknown>, types: unknown[]): void {
  const nonNull = types.filter((type) => type !== "null")
  if (nonNull.length === 0) {
    node.type = "null"
    return
  }
  delete node.type
  node.anyOf = nonNull.map((type) => ({ type }))
  if (nonNull.length < types.length) node.nullable = true
}
