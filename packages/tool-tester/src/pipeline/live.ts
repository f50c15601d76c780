// The live objects of a project (tool definitions, plugin hooks) exist only in the process that
// imported the modules. The pipeline reaches them through these two functions, which say so
// plainly when a project loaded by the bun engine is used where only its snapshot is.

import type { PluginHooks } from "../discovery/plugin-module.ts"
import type { ToolDefinitionLike } from "../discovery/tool-exports.ts"
import { ToolTesterError } from "../errors.ts"
import type { LoadedPlugin, LoadedTool } from "../types.ts"

export function liveDefinition(tool: LoadedTool): ToolDefinitionLike {
  if (tool.definition) return tool.definition
  throw notHere(`${tool.id}'s definition`)
}

export function liveHooks(plugin: LoadedPlugin): PluginHooks {
  if (plugin.hooks) return plugin.hooks
  throw notHere(`the hooks of ${plugin.file}`)
}

function notHere(what: string): ToolTesterError {
  return new ToolTesterError(
    "ENGINE_FAILED",
    `${what} lives in the bun engine's process, not here: pass the project that loadTools() returned (or a spread copy of it) to runTool, callTool and getToolSchemas`,
  )
}
