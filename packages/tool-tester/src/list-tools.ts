import type { Result } from "./errors.ts"
import { ToolTesterError } from "./errors.ts"
import { described } from "./_described.ts"
import { isRecord } from "./_is-record.ts"
import { refuseUnknownOptions } from "./_known-options.ts"
import { modelOf, rulesOf } from "./pipeline/list-options.ts"
import { offeredTools } from "./pipeline/tool-list.ts"
import type { ToolSchema } from "./pipeline/tool-schemas.ts"
import { checkProject, engineOf } from "./project-engine/engine-of.ts"
import type { ListedTool, ListOptions, ToolProject } from "./types.ts"

export type { ListedTool, ListOptions } from "./types.ts"

/** The tools opencode would offer this model: built-ins and custom tools, sorted as opencode sorts them. */
export function listTools(project: ToolProject, options: ListOptions = {}): ListedTool[] {
  checkProject(project)
  checkListOptions("listTools", options)
  return offeredTools(project, modelOf(options), rulesOf(project, options)).map((entry) => {
    if (entry.source === "builtin") return { id: entry.id, source: "builtin" }
    const listed: ListedTool = { id: entry.id, source: entry.source, file: entry.tool.file }
    if (entry.tool.export !== undefined) listed.export = entry.tool.export
    if (entry.tool.plugin !== undefined) listed.plugin = entry.tool.plugin
    if (entry.tool.overrides !== undefined) listed.overrides = entry.tool.overrides
    return listed
  })
}

/**
 * The custom and plugin tools exactly as the provider receives them for this model, in request
 * order. Fails with SCHEMA_UNREPRESENTABLE when opencode could not build its tool list at all.
 */
export async function getToolSchemas(project: ToolProject, options: ListOptions = {}): Promise<Result<ToolSchema[]>> {
  checkListOptions("getToolSchemas", options)
  return engineOf(project).schemas(project, options)
}

// --- internal ---

/** Every option the list takes: `provider` for `model` would list for the mock model without a word. */
const LIST_OPTIONS: Record<keyof ListOptions, true> = { model: true, permissions: true }

function checkListOptions(caller: string, options: ListOptions): void {
  if (!isRecord(options))
    throw new ToolTesterError(
      "USAGE",
      `${caller}'s options must be an object, such as { model }, not ${described(options)}`,
      {
        data: { option: "options" },
      },
    )
  refuseUnknownOptions(caller, options, LIST_OPTIONS)
}
