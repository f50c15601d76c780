import { didYouMean } from "../did-you-mean.ts"
import type { Reached } from "../engine-client/protocol.ts"
import type { ProjectInput } from "./task.ts"
import { MAX_DEPTH } from "../_json-safe.ts"
import { ToolTesterError } from "../errors.ts"
import { getToolSchemas, listTools } from "../list-tools.ts"
import type { ToolSchema } from "../pipeline/tool-schemas.ts"
import type { Diagnostic } from "../types.ts"
import { diagnosticOf, loadProject } from "./task-project.ts"
import { toolChoice } from "../_tool-choice.ts"

/** A schema deeper than the report keeps (a warning of `schema` only, never in project.diagnostics). */
type SchemaCut = Omit<Diagnostic, "code"> & { code: "SCHEMA_CUT" }

export type SchemaPayload = { tools: ToolSchema[]; diagnostics: Array<Diagnostic | SchemaCut> }

/**
 * The custom and plugin tools exactly as opencode puts them in the request for this provider and
 * model. When one schema cannot be converted opencode offers nothing at all; we report that and
 * still show the others, so one broken tool does not hide the rest.
 */
export async function schemaTask(
  input: ProjectInput & { tool: string | undefined },
  loaded: (reached: Reached | undefined) => void,
): Promise<SchemaPayload> {
  const project = await loadProject(input)
  loaded(undefined)
  const diagnostics = [...project.diagnostics]
  const left: string[] = []
  let tools: ToolSchema[] = []
  while (true) {
    const schemas = await getToolSchemas(project, { model: input.model, permissions: { deny: left } })
    if (schemas.success) {
      tools = schemas.value
      break
    }
    diagnostics.push(diagnosticOf(schemas.error))
    const failing = schemas.error.data?.["tool"]
    // Leave the failing tool out (as a permission deny would) and convert the others.
    if (typeof failing !== "string" || left.includes(failing)) break
    left.push(failing)
  }
  if (input.tool === undefined) return { tools, diagnostics: [...diagnostics, ...cutSchemas(tools)] }
  const wanted = tools.filter((tool) => tool.name === input.tool)
  if (wanted.length === 0 && !left.includes(input.tool))
    throw notFound(input.tool, listTools(project, { model: input.model }))
  return { tools: wanted, diagnostics: [...diagnostics, ...cutSchemas(wanted)] }
}

// --- internal ---

/** How deep a schema's `parameters` sit in the payload (payload, tools, tool): the report keeps MAX_DEPTH levels of it. */
const PAYLOAD_LEVELS = 3

/** A warning for each schema the report cuts (jsonSafe keeps MAX_DEPTH levels): it is never cut silently. */
function cutSchemas(tools: ToolSchema[]): SchemaCut[] {
  const kept = MAX_DEPTH - PAYLOAD_LEVELS
  return tools
    .map((tool) => ({ tool, depth: depthOf(tool.parameters) }))
    .filter(({ depth }) => depth > kept)
    .map(({ tool, depth }) => ({
      code: "SCHEMA_CUT" as const,
      severity: "warning" as const,
      message: `${tool.name}: its schema is ${depth} levels deep; this report keeps ${kept} levels and writes "[cut: deeper than ${MAX_DEPTH} levels]" below them, so what it shows is not the schema opencode sends (opencode sends it whole): flatten the schema, or read it with getToolSchemas() from the library`,
      data: { tool: tool.name, depth, kept },
    }))
}

/** The number of nested objects and arrays in `value` (0 for a primitive), without recursion. */
function depthOf(value: unknown): number {
  let deepest = 0
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }]
  const seen = new Set<unknown>()
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!
    if (typeof current !== "object" || current === null || seen.has(current)) continue
    seen.add(current)
    if (depth + 1 > deepest) deepest = depth + 1
    for (const child of Object.values(current)) stack.push({ value: child, depth: depth + 1 })
  }
  return deepest
}

function notFound(name: string, offered: ReturnType<typeof listTools>): ToolTesterError {
  const builtin = offered.some((tool) => tool.id === name && tool.source === "builtin")
  const custom = offered.filter((tool) => tool.source !== "builtin").map((tool) => tool.id)
  return new ToolTesterError(
    "TOOL_NOT_FOUND",
    builtin
      ? `${name} is a built-in opencode tool; schema shows custom and plugin tools only: ${toolChoice("pick", custom)}`
      : `no custom or plugin tool named ${name} is offered for this model: ${toolChoice("pick", custom)}${didYouMean(name, custom)}`,
    { data: { tool: name } },
  )
}
