import { remoteEngineOf } from "./engine-client/remote-project.ts"
import type { Result, ToolTesterErrorCode } from "./errors.ts"
import { ToolTesterError } from "./errors.ts"
import type { ModelSelection } from "./pipeline/builtins.ts"
import { DEFAULT_MODEL } from "./pipeline/builtins.ts"
import { defaultDataDirectory } from "./pipeline/data-directory.ts"
import { agentRules } from "./pipeline/permissions.ts"
import { offeredTools } from "./pipeline/tool-list.ts"
import type { ToolSchema } from "./pipeline/tool-schemas.ts"
import { toolSchemas } from "./pipeline/tool-schemas.ts"
import type { ListedTool, ListOptions, ToolProject } from "./types.ts"

export type { ListedTool, ListOptions } from "./types.ts"

/** The tools opencode would offer this model: built-ins and custom tools, sorted as opencode sorts them. */
export function listTools(project: ToolProject, options: ListOptions = {}): ListedTool[] {
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
  const remote = remoteEngineOf(project)
  if (!remote) return toolSchemas(project, modelOf(options), rulesOf(project, options))
  const result = (await remote.schemas(options)) as Result<
    ToolSchema[],
    { code: string; message: string; data?: Record<string, unknown> }
  >
  if (result.success) return result
  const { code, message, data } = result.error
  return {
    success: false,
    error: new ToolTesterError(code as ToolTesterErrorCode, message, data === undefined ? {} : { data }),
  }
}

// --- internal ---

function modelOf(options: ListOptions): ModelSelection {
  return { ...DEFAULT_MODEL, ...options.model }
}

function rulesOf(project: ToolProject, options: ListOptions) {
  return agentRules({
    config: project.config.permission,
    overrides: options.permissions,
    dataDirectory: defaultDataDirectory(),
  })
}
