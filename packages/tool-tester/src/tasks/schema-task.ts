import type { ProjectInput, Reached } from "../engine/protocol.ts"
import { ToolTesterError } from "../errors.ts"
import { getToolSchemas, listTools } from "../list-tools.ts"
import type { ToolSchema } from "../pipeline/tool-schemas.ts"
import type { Diagnostic } from "../types.ts"
import { diagnosticOf, loadProject } from "./task-project.ts"

export type SchemaPayload = { tools: ToolSchema[]; diagnostics: Diagnostic[] }

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
  if (input.tool === undefined) return { tools, diagnostics }
  const wanted = tools.filter((tool) => tool.name === input.tool)
  if (wanted.length === 0 && !left.includes(input.tool))
    throw notFound(input.tool, listTools(project, { model: input.model }))
  return { tools: wanted, diagnostics }
}

// --- internal ---

function notFound(name: string, offered: ReturnType<typeof listTools>): ToolTesterError {
  const builtin = offered.some((tool) => tool.id === name && tool.source === "builtin")
  const custom = offered.filter((tool) => tool.source !== "builtin").map((tool) => tool.id)
  return new ToolTesterError(
    "TOOL_NOT_FOUND",
    builtin
      ? `${name} is a built-in opencode tool; schema shows custom and plugin tools only: pick one of ${custom.join(", ") || "(none found)"}`
      : `no custom or plugin tool named ${name} is offered for this model: pick one of ${custom.join(", ") || "(none found)"}`,
    { data: { tool: name } },
  )
}
