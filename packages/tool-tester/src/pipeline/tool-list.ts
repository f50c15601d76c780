import type { PermissionRule } from "../config/permission.ts"
import { isToolDisabled } from "../config/permission.ts"
import type { LoadedTool, ToolProject } from "../types.ts"
import type { ModelSelection } from "./builtins.ts"
import { builtinToolIds, keptForModel } from "./builtins.ts"

/** One entry of the tool map opencode builds for a request. */
export type ToolEntry = { id: string; source: "builtin" } | { id: string; source: "file" | "plugin"; tool: LoadedTool }

/**
 * The tool map opencode prepares for one request (docs/opencode-contract.md#offered-tools):
 * built-ins for the model, then custom tools with the last definition of an id winning, minus the
 * tools the permission rules deny, sorted with `localeCompare` as opencode sorts them. `invalid` is
 * in the map (it is callable) but never offered: use {@link offeredTools} for what the model sees.
 */
export function preparedTools(
  project: ToolProject,
  model: ModelSelection,
  rules: readonly PermissionRule[],
): ToolEntry[] {
  const byId = new Map<string, ToolEntry>()
  for (const id of builtinToolIds(model)) byId.set(id, { id, source: "builtin" })
  for (const tool of project.tools) {
    if (keptForModel(tool.id, model)) byId.set(tool.id, { id: tool.id, source: tool.source, tool })
  }
  const sorted = [...byId.values()]
    .filter((entry) => !isToolDisabled(entry.id, rules))
    .sort((left, right) => left.id.localeCompare(right.id))
  // opencode keeps the sorted tools in an object, whose keys that are array indices ("123", not
  // "007") come first, in numeric order: observed on 1.18.34, a tool file 123.ts was offered first.
  const indices = sorted
    .filter((entry) => isArrayIndex(entry.id))
    .sort((left, right) => Number(left.id) - Number(right.id))
  return [...indices, ...sorted.filter((entry) => !isArrayIndex(entry.id))]
}

/** A key JavaScript orders as an array index: a canonical whole number below 2^32 - 1. */
function isArrayIndex(key: string): boolean {
  return /^(?:0|[1-9][0-9]{0,9})$/.test(key) && Number(key) < 2 ** 32 - 1
}

/** The tools listed in the request's `tools` array: the prepared map without `invalid`. */
export function offeredTools(
  project: ToolProject,
  model: ModelSelection,
  rules: readonly PermissionRule[],
): ToolEntry[] {
  return preparedTools(project, model, rules).filter((entry) => entry.id !== "invalid")
}
