import { jsonSafe } from "../_json-safe.ts"
import { messageOfThrown } from "../errors.ts"
import { danglingRefs } from "../schema/refs.ts"
import { isZodSchema, toolJsonSchema } from "../schema/tool-json-schema.ts"
import { isNotObjectArgs, notObjectArgsFinding } from "./args-not-object.ts"
import type { Finding } from "./finding.ts"
import { isJsonSchemaAsArgs, jsonSchemaAsArgsFinding } from "./json-schema-as-args.ts"
import { isSchemaAsArgs, schemaAsArgsFinding } from "./schema-as-args.ts"
import { isZod3Schema, zod3ShapeSchema } from "./zod3-schema.ts"

/**
 * What opencode makes of a tool's `args` (docs/opencode-contract.md#json-schema,
 * docs/opencode-contract.md#non-zod-args): zod 4 schemas are converted (z.date() and z.bigint()
 * break the whole tool list; recursive schemas get `$ref`s that dangle); anything else switches the
 * tool to the legacy path, where plain objects are sent verbatim as JSON Schema, zod 3 and zod 4
 * schemas alike as their internals, and other values are dropped.
 */
export function argsSchemaFindings(tool: { id: string; file: string; args: unknown }): Finding[] {
  try {
    return readFindings(tool)
  } catch (error) {
    // Args whose reads throw (a hostile Proxy, a throwing getter): opencode cannot read them either.
    return [
      {
        code: "SCHEMA_UNREPRESENTABLE",
        severity: "error",
        file: tool.file,
        message: `tool ${tool.id}: reading its args threw ${messageOfThrown(error)}: opencode fails to build its tool list, so the model is offered no tool at all; make args a plain object of zod types`,
      },
    ]
  }
}

function readFindings(tool: { id: string; file: string; args: unknown }): Finding[] {
  const { args } = tool
  const at = (finding: Omit<Finding, "file" | "message"> & { message: string }): Finding => ({
    ...finding,
    file: tool.file,
    message: `tool ${tool.id}: ${finding.message}`,
  })
  if (args === undefined || args === null) return []
  if (isSchemaAsArgs(args)) return [schemaAsArgsFinding(tool)]
  if (isNotObjectArgs(args)) return [notObjectArgsFinding(tool)]
  if (isJsonSchemaAsArgs(args)) return [jsonSchemaAsArgsFinding({ ...tool, args })]
  const entries = Object.entries(args)
  const converted = toolJsonSchema(args)
  if (entries.every(([, value]) => isZodSchema(value))) {
    if (!converted.success)
      return [at({ code: "SCHEMA_UNREPRESENTABLE", severity: "error", message: converted.error.message })]
    return danglingRefs(converted.value).length === 0
      ? []
      : [
          at({
            code: "DANGLING_REF",
            severity: "warning",
            message: `its recursive schema is sent with $refs that point nowhere (${danglingRefs(converted.value).join(", ")}): opencode renames $defs to definitions but not the refs, so the model cannot see the recursive part and strict providers reject it: limit the depth instead of recursing`,
            data: { tool: tool.id, refs: danglingRefs(converted.value) },
          }),
        ]
  }

  const sent = jsonSafe(converted.success ? converted.value : {})
  const zod3 = entries.filter(([, value]) => isZod3Schema(value)).map(([key]) => key)
  const zod4 = entries.filter(([, value]) => isZodSchema(value)).map(([key]) => key)
  const dropped = entries.filter(([, value]) => !isFragment(value)).map(([key, value]) => `${key} (${kindOf(value)})`)
  const verbatim = entries
    .filter(([key, value]) => isFragment(value) && !zod3.includes(key) && !zod4.includes(key))
    .map(([key]) => key)
  const findings: Finding[] = []
  if (zod3.length > 0) {
    const meant = zod3ShapeSchema(args as Record<string, unknown>)
    findings.push(
      at({
        code: "ZOD3_SCHEMA",
        severity: "error",
        message: `${zod3.join(", ")} ${zod3.length === 1 ? "is a zod 3 schema" : "are zod 3 schemas"}, which opencode does not recognise: it sends their internals as JSON Schema, ${preview(sent)}, instead of ${preview(meant)}: use zod 4 (zod@4, or tool.schema from @opencode-ai/plugin)`,
        data: { tool: tool.id, args: zod3, sent, meant },
      }),
    )
  }
  const problems = [
    dropped.length > 0
      ? `${dropped.join(", ")} ${dropped.length === 1 ? "is" : "are"} silently dropped from the schema`
      : "",
    zod4.length > 0
      ? `${zod4.join(", ")} ${zod4.length === 1 ? "is a zod schema but is" : "are zod schemas but are"} sent as zod internals because other args are not zod`
      : "",
    verbatim.length > 0
      ? `${verbatim.join(", ")} ${verbatim.length === 1 ? "is" : "are"} sent verbatim as JSON Schema, marked required and never validated`
      : "",
  ].filter(Boolean)
  if (problems.length > 0) {
    findings.push(
      at({
        code: "NON_ZOD_ARGS",
        severity: "warning",
        message: `${problems.join("; ")}: make every arg a zod 4 schema (tool.schema.string(), ...)`,
        data: { tool: tool.id, dropped, zod: zod4, verbatim, sent },
      }),
    )
  }
  return findings
}

// --- internal ---

/** Values opencode's legacy path keeps as JSON Schema fragments: booleans and non-array objects. */
function isFragment(value: unknown): boolean {
  return typeof value === "boolean" || (typeof value === "object" && value !== null && !Array.isArray(value))
}

function kindOf(value: unknown): string {
  if (value === null) return "null"
  if (Array.isArray(value)) return "an array"
  return `a ${typeof value}`
}

function preview(value: unknown): string {
  const text = JSON.stringify(value)
  return text.length > 160 ? `${text.slice(0, 157)}...` : text
}
