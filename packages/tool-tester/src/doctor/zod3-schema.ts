import { createRequire } from "node:module"

/** A zod 3 schema (from any copy): it has `_def.typeName` and no `_zod`, so opencode does not treat it as zod. */
export function isZod3Schema(value: unknown): boolean {
  if (typeof value !== "object" || value === null || "_zod" in value || !("_def" in value)) return false
  const def = (value as { _def: unknown })._def
  return (
    typeof def === "object" &&
    def !== null &&
    typeof (def as { typeName?: unknown }).typeName === "string" &&
    (def as { typeName: string }).typeName.startsWith("Zod")
  )
}

/**
 * The JSON Schema a shape of zod 3 schemas means (what zod 3 users expect opencode to send), made
 * with zod-to-json-schema: an object with one property per arg, required unless optional.
 */
export function zod3ShapeSchema(shape: Record<string, unknown>): Record<string, unknown> {
  const properties: Record<string, unknown> = {}
  const required: string[] = []
  for (const [key, value] of Object.entries(shape)) {
    if (!isZod3Schema(value)) continue
    const isOptional = (value as { isOptional?: unknown }).isOptional
    const optional = typeof isOptional === "function" && isOptional.call(value) === true
    // An optional arg is an absent key, not an "anything or nothing" schema: convert what it wraps.
    const def = (value as { _def: { typeName: string; innerType?: unknown } })._def
    const inner = def.typeName === "ZodOptional" && isZod3Schema(def.innerType) ? def.innerType : value
    const { zodToJsonSchema } = converter()
    const { $schema: _, ...schema } = zodToJsonSchema(inner as Parameters<typeof zodToJsonSchema>[0], {
      $refStrategy: "none",
    }) as Record<string, unknown>
    properties[key] = schema
    if (!optional) required.push(key)
  }
  return { type: "object", properties, ...(required.length > 0 ? { required } : {}) }
}

// --- internal ---

/** Loaded on the first zod 3 schema only: the package costs ~15 ms to load, and most projects have none. */
function converter(): typeof import("zod-to-json-schema") {
  return createRequire(import.meta.url)("zod-to-json-schema") as typeof import("zod-to-json-schema")
}
