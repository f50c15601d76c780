import type { Reached } from "../engine-client/protocol.ts"
import type { ProjectInput } from "./task.ts"
import { getToolSchemas, listTools } from "../list-tools.ts"
import type { Diagnostic, ListedTool } from "../types.ts"
import { diagnosticOf, loadProject } from "./task-project.ts"

export type ListPayload = { tools: ListedTool[]; diagnostics: Diagnostic[] }

/**
 * The tools opencode would offer, in its order, with what went wrong while loading them, and a
 * diagnostic when the tool list as a whole would fail (a schema zod cannot convert).
 */
export async function listTask(
  input: ProjectInput,
  loaded: (reached: Reached | undefined) => void,
): Promise<ListPayload> {
  const project = await loadProject(input)
  loaded(undefined)
  const tools = listTools(project, { model: input.model })
  const schemas = await getToolSchemas(project, { model: input.model })
  const diagnostics = [...project.diagnostics]
  if (!schemas.success) diagnostics.push(diagnosticOf(schemas.error))
  return { tools, diagnostics }
}
