// A tool whose `args` is a whole JSON Schema (`{ type: "object", properties: { city: {...} } }`)
// where opencode expects a plain object of zod schemas. opencode 1.18.34 takes its keywords as the
// args: it offers the model one required argument named `properties` (the `type` string is dropped)
// and passes what the model sends to execute unchecked (observed, `args-shapes` golden, tool
// `args_json_schema`; docs/opencode-contract.md#args-that-are-not-a-shape).
import { isRecord } from "../_is-record.ts"
import { isZodSchema, toolJsonSchema } from "../schema/tool-json-schema.ts"
import type { Finding } from "./finding.ts"

/** True for args shaped like an object JSON Schema: `properties` an object, `type` "object" when given, no zod value. */
export function isJsonSchemaAsArgs(args: unknown): args is Record<string, unknown> {
  if (!isRecord(args) || !isRecord(args["properties"])) return false
  if (Object.values(args).some(isZodSchema)) return false
  return args["type"] === "object" || (args["type"] === undefined && Array.isArray(args["required"]))
}

/** The NON_ZOD_ARGS error for such args: the arguments opencode offers instead, and the zod shape to write. */
export function jsonSchemaAsArgsFinding(tool: { id: string; file: string; args: Record<string, unknown> }): Finding {
  const converted = toolJsonSchema(tool.args)
  const properties = converted.success ? converted.value["properties"] : undefined
  const offered = isRecord(properties) ? Object.keys(properties) : []
  return {
    code: "NON_ZOD_ARGS",
    severity: "error",
    file: tool.file,
    message: `tool ${tool.id}: args is a whole JSON Schema where opencode expects a plain object of zod schemas: it takes the schema's keywords as the arguments, so it offers the model ${offered.length === 1 ? "one required argument named" : "the required arguments named"} ${offered.join(", ")} and passes what the model sends to execute unchecked; write ${shapeExample(tool.args)}`,
    data: { tool: tool.id, offered },
  }
}

// --- internal ---

const SHOWN_FIELDS = 4
const ZOD_OF_TYPE: Record<string, string> = {
  string: "z.string()",
  number: "z.number()",
  integer: "z.number().int()",
  boolean: "z.boolean()",
  array: "z.array(...)",
  object: "z.object(...)",
}

/** `args: { city: z.string(), days: z.number().optional() }` from the schema's own properties. */
function shapeExample(schema: Record<string, unknown>): string {
  const properties = schema["properties"] as Record<string, unknown>
  const required = Array.isArray(schema["required"]) ? schema["required"] : []
  const entries = Object.entries(properties)
  if (entries.length === 0) return "args: {}"
  const fields = entries.slice(0, SHOWN_FIELDS).map(([key, value]) => {
    const type = isRecord(value) && typeof value["type"] === "string" ? ZOD_OF_TYPE[value["type"]] : undefined
    const written = `${type ?? "z.unknown()"}${required.includes(key) ? "" : ".optional()"}`
    return `${/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key)}: ${written}`
  })
  if (entries.length > SHOWN_FIELDS) fields.push("...")
  return `args: { ${fields.join(", ")} }`
}
