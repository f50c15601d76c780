// What a ListOptions means for the tool list: the model (tool-tester's default model, with what the
// options change) and the permission rules (the project's, then the options' overrides).
import type { ListOptions, ToolProject } from "../types.ts"
import type { ModelSelection } from "./builtins.ts"
import { DEFAULT_MODEL } from "./builtins.ts"
import { defaultDataDirectory } from "./data-directory.ts"
import { agentRules } from "./permissions.ts"

export function modelOf(options: ListOptions): ModelSelection {
  return { ...DEFAULT_MODEL, ...options.model }
}

export function rulesOf(project: ToolProject, options: ListOptions) {
  return agentRules({
    config: project.config.permission,
    overrides: options.permissions,
    dataDirectory: defaultDataDirectory(),
  })
}
