import { checkTimeoutOption } from "./_timeout-bound.ts"
import { projectClientOf } from "./client/project-client.ts"
import type { RawToolCall } from "./pipeline/repair-call.ts"
import { engineOf } from "./project-engine/engine-of.ts"
import type { RunOptions, RunResult, ToolProject } from "./types.ts"

export type { RunOptions, RunResult } from "./types.ts"

/**
 * Runs a tool by name with arguments already parsed, as opencode runs a model's call. Rejects with
 * USAGE for a `timeoutMs` that is not above 0 and at most 2000000000 (a timer cannot wait longer).
 */
export async function runTool(
  project: ToolProject,
  name: string,
  args: unknown,
  options: RunOptions = {},
): Promise<RunResult> {
  checkTimeoutOption("timeoutMs", options.timeoutMs)
  return engineOf(project).run(project, { name, args }, options)
}

/**
 * Runs a model's raw call (name + argument text) through opencode's repair first: wrong case fixed,
 * unknown names and unparsable JSON rerouted to `invalid`.
 */
export async function callTool(project: ToolProject, call: RawToolCall, options: RunOptions = {}): Promise<RunResult> {
  checkTimeoutOption("timeoutMs", options.timeoutMs)
  return engineOf(project).run(project, { call }, options)
}

/**
 * Ends the bun engine's process of a project and everything its tools started, and the opencode
 * server behind its plugins' `input.client` (started, or still starting): all are killed before it
 * returns.
 * Optional: neither keeps the process alive, and both end with it.
 */
export function closeProject(project: ToolProject): void {
  engineOf(project).close()
  projectClientOf(project)?.stop()
}
