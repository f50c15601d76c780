// A tool whose `args` is a zod schema itself (`z.object({ city: z.string() })`) instead of the
// plain object of zod schemas opencode expects (`{ city: z.string() }`). opencode 1.18.34 finds no
// `_zod` on its values and takes its legacy path: the model is offered the schema's internals
// (`~standard`, `def`) as required arguments, and what the model sends reaches execute unchecked
// (observed with `tool-tester e2e`; docs/opencode-contract.md#non-zod-args). One finding says so;
// what providers make of those internals only follows from it (provider-lint.ts leaves it out).
import { isZodSchema, toolJsonSchema } from "../schema/tool-json-schema.ts"
import type { Finding } from "./finding.ts"
import { isZod3Schema } from "./zod3-schema.ts"

/** True when args is a zod schema (zod 4 from any copy, or zod 3) rather than a shape of them. */
export function isSchemaAsArgs(args: unknown): boolean {
  return isZodSchema(args) || isZod3Schema(args)
}

/** The NON_ZOD_ARGS error for args that are a zod schema, with the shape to write instead. */
export function schemaAsArgsFinding(tool: { id: string; file: string; args: unknown }): Finding {
  const converted = toolJsonSchema(tool.args)
  const properties = converted.success ? converted.value["properties"] : undefined
  const internals = typeof properties === "object" && properties !== null ? Object.keys(properties) : []
  const offered = internals.length > 0 ? `(${internals.join(", ")})` : "(none of its fields)"
  const made = `z.${kindOf(tool.args).type ?? "object"}(...)`
  return {
    code: "NON_ZOD_ARGS",
    severity: "error",
    file: tool.file,
    message: `tool ${tool.id}: args is a zod schema itself (${made}) where opencode expects a plain object of zod schemas: it offers the model the schema's internals ${offered} as the arguments, and passes what the model sends to execute unchecked; write ${shapeExample(tool.args)}, not ${made}`,
    data: { tool: tool.id, offered: internals },
  }
}

// --- internal ---

/** How many of the object's fields the example shows before "...". */
const SHOWN_FIELDS = 4
const SIMPLE = new Set(["string", "number", "boolean", "bigint", "date", "any", "unknown", "null", "int"])

/** `args: { city: z.string() }` for the schema's own fields, or a placeholder when it has none to show. */
function shapeExample(schema: unknown): string {
  const shape = (schema as { shape?: unknown }).shape
  if (typeof shape !== "object" || shape === null) return "args: { name: z.string() }"
  const entries = Object.entries(shape)
  if (entries.length === 0) return "args: {}"
  const fields = entries.slice(0, SHOWN_FIELDS).map(([key, value]) => `${fieldName(key)}: ${written(value)}`)
  if (entries.length > SHOWN_FIELDS) fields.push("...")
  return `args: { ${fields.join(", ")} }`
}

/** A field's schema as a user would write it, for the common types; `z.array(...)` for others. */
function written(schema: unknown, depth = 0): string {
  const { type, inner } = kindOf(schema)
  if (type === undefined) return "..."
  if ((type === "optional" || type === "nullable") && depth < 3) return `${written(inner, depth + 1)}.${type}()`
  return SIMPLE.has(type) ? `z.${type}()` : `z.${type}(...)`
}

/** The type name of a zod 4 (`_zod.def.type`) or zod 3 (`_def.typeName`) schema, and what it wraps. */
function kindOf(schema: unknown): { type?: string; inner?: unknown } {
  if (isZodSchema(schema)) {
    const def = (schema as { _zod: { def?: { type?: unknown; innerType?: unknown } } })._zod.def
    return typeof def?.type === "string" ? { type: def.type, inner: def.innerType } : {}
  }
  if (isZod3Schema(schema)) {
    const def = (schema as { _def: { typeName: string; innerType?: unknown } })._def
    const name = def.typeName.slice("Zod".length)
    return { type: name.charAt(0).toLowerCase() + name.slice(1), inner: def.innerType }
  }
  return {}
}

function fieldName(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key)
}
