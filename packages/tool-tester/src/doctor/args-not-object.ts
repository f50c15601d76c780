// A tool whose `args` is neither an object of schemas nor a zod schema: a string, a number, an
// array, a boolean, a function. opencode 1.18.34 still offers the tool and passes what the model
// sends to execute unchecked; what it offers depends on the value (observed, `args-shapes` golden,
// docs/opencode-contract.md#args-that-are-not-a-shape): an array's items become args named by
// their index, a string's characters are dropped, anything else is no args at all.
import { jsonSafe } from "../_json-safe.ts"
import { toolJsonSchema } from "../schema/tool-json-schema.ts"
import type { Finding } from "./finding.ts"

/** True for args that are not an object (null and undefined excluded: opencode takes them as `{}`). */
export function isNotObjectArgs(args: unknown): boolean {
  if (args === undefined || args === null) return false
  return typeof args !== "object" || Array.isArray(args)
}

/** The NON_ZOD_ARGS error for such args: what opencode offers the model instead, and what to write. */
export function notObjectArgsFinding(tool: { id: string; file: string; args: unknown }): Finding {
  const converted = toolJsonSchema(tool.args)
  const sent = converted.success ? converted.value : {}
  const properties = sent["properties"]
  const offered = typeof properties === "object" && properties !== null ? Object.keys(properties) : []
  const offers =
    offered.length === 0
      ? "no arguments"
      : `${offered.length === 1 ? "the argument" : "the arguments"} ${offered.join(", ")} (sent verbatim as JSON Schema, required)`
  const write =
    offered.length === 0
      ? "args: {} for a tool without arguments, or args: { name: z.string() }"
      : "args: { name: z.string() }"
  return {
    code: "NON_ZOD_ARGS",
    severity: "error",
    file: tool.file,
    message: `tool ${tool.id}: args is ${described(tool.args)}, not an object of zod schemas: opencode ${readAs(tool.args)}, so it offers the model ${offers} and passes what the model sends to execute unchecked; write ${write}`,
    data: { tool: tool.id, offered, sent: jsonSafe(sent) },
  }
}

// --- internal ---

/** How opencode reads the value: `Object.entries(args)` on it (docs/opencode-contract.md#args-that-are-not-a-shape). */
function readAs(args: unknown): string {
  if (Array.isArray(args))
    return args.length === 0
      ? "takes it as no args"
      : "takes its items as args named by their index and keeps only the objects and booleans"
  if (typeof args === "string" && args.length > 0) return "takes its characters as args and drops them all"
  return "takes it as no args"
}

const SHOWN_CHARACTERS = 20

function described(args: unknown): string {
  if (Array.isArray(args)) return "an array"
  if (typeof args === "string") {
    const shown = args.length > SHOWN_CHARACTERS ? `${args.slice(0, SHOWN_CHARACTERS)}...` : args
    return `a string (${JSON.stringify(shown)})`
  }
  if (typeof args === "number" || typeof args === "boolean") return `a ${typeof args} (${String(args)})`
  return `a ${typeof args}`
}
