// opencode's OpenAI sanitiser (docs/opencode-contract.md#openai-sanitiser): every node is
// rebuilt from a short list of keywords, like Codex lowers tool schemas for the Responses API.
import { isRecord } from "../_is-record.ts"
import { mapValues } from "./_record.ts"

const supportedTypes = new Set(["string", "number", "boolean", "integer", "object", "array", "null"])
const combiners = ["anyOf", "oneOf", "allOf"] as const
const numericBounds = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"]

/**
 * Rebuild a schema node, recursively, with only `$ref`, `description`, `enum` (a `const` becomes
 * a one-value `enum` and wins over an `enum`), `properties`, `required`, `items`,
 * `additionalProperties`, `anyOf`/`oneOf`/`allOf`, `$defs`/`definitions` and, last, `type`.
 * Every other keyword (`$schema`, `format`, `pattern`, bounds, `default`, `title`,
 * `prefixItems`, …) is dropped. A boolean schema becomes `{type: "string"}`; a node whose type
 * can be neither kept nor inferred becomes `{}`; objects get `properties` and arrays get `items`.
 */
export function sanitizeOpenAISchema(schema: unknown): unknown {
  if (typeof schema === "boolean") return { type: "string" }
  if (Array.isArray(schema)) return schema.map(sanitizeOpenAISchema)
  if (!isRecord(schema)) return schema

  const result: Record<string, unknown> = {}
  if (typeof schema.$ref === "string") result.$ref = schema.$ref
  if (typeof schema.description === "string") result.description = schema.description
  if ("const" in schema) result.enum = [schema.const]
  else if (Array.isArray(schema.enum)) result.enum = [...schema.enum]
  if (isRecord(schema.properties)) result.properties = mapValues(schema.properties, sanitizeOpenAISchema)
  if (Array.isArray(schema.required)) result.required = schema.required.filter((key) => typeof key === "string")
  if ("items" in schema) result.items = sanitizeOpenAISchema(schema.items)
  if ("additionalProperties" in schema) {
    const additional = schema.additionalProperties
    result.additionalProperties = typeof additional === "boolean" ? additional : sanitizeOpenAISchema(additional)
  }
  for (const combiner of combiners) {
    const members = schema[combiner]
    if (Array.isArray(members)) result[combiner] = members.map(sanitizeOpenAISchema)
  }
  for (const key of ["$defs", "definitions"]) {
    const definitions = schema[key]
    if (isRecord(definitions)) result[key] = mapValues(definitions, sanitizeOpenAISchema)
  }

  const type = keptType(schema.type)
  if (type === undefined && ("$ref" in result || combiners.some((combiner) => combiner in result))) return result
  const finalType = type ?? inferredType(schema, result)
  if (finalType === undefined) return {}
  result.type = finalType

  if (hasType(finalType, "object") && !("properties" in result)) result.properties = {}
  if (hasType(finalType, "array") && !("items" in result)) result.items = { type: "string" }
  return result
}

// --- internal ---

/** The node's own type without the names OpenAI does not know; a one-name array becomes that name. */
function keptType(type: unknown): string | string[] | undefined {
  if (typeof type === "string") return supportedTypes.has(type) ? type : undefined
  if (!Array.isArray(type)) return undefined
  const kept = type.filter((name): name is string => typeof name === "string" && supportedTypes.has(name))
  if (kept.length === 0) return undefined
  return kept.length === 1 ? kept[0] : kept
}

/**
 * A type guessed from the keywords of the original node (and from the kept `enum`: an `enum` that
 * was not an array hints at nothing), or undefined when nothing hints at one.
 */
function inferredType(schema: Record<string, unknown>, kept: Record<string, unknown>): string | undefined {
  if ("properties" in schema || "required" in schema || "additionalProperties" in schema) return "object"
  if ("items" in schema || "prefixItems" in schema) return "array"
  if ("enum" in kept || "format" in schema) return "string"
  if (numericBounds.some((bound) => bound in schema)) return "number"
  return undefined
}

function hasType(type: string | string[], name: string): boolean {
  return type === name || (Array.isArray(type) && type.includes(name))
}
