import type { Reached } from "../engine-client/protocol.ts"
import type { ProjectInput } from "./task.ts"
import { getToolSchemas, listTools } from "../list-tools.ts"
import { keptForModel } from "../pipeline/builtins.ts"
import type { Diagnostic, ListedTool } from "../types.ts"
import { diagnosticOf, loadProject } from "./task-project.ts"

/** A custom or plugin tool the model is not offered: opencode's per-model filter hides its id (a custom `edit` for gpt-5). */
type HiddenTool = { id: string; file: string }

export type ListPayload = { tools: ListedTool[]; hidden: HiddenTool[]; diagnostics: Diagnostic[] }

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
  // The definition that would have been offered: the last one with its id.
  const hidden = new Map<string, HiddenTool>()
  for (const tool of project.tools)
    if (!keptForModel(tool.id, input.model)) hidden.set(tool.id, { id: tool.id, file: tool.file })
  return { tools, hidden: [...hidden.values()], diagnostics }
}
