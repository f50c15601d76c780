import { projectClientOf } from "./client/project-client.ts"
import { remoteEngineOf } from "./engine/remote-project.ts"
import { executeCall } from "./pipeline/execute-call.ts"
import type { RawToolCall } from "./pipeline/repair-call.ts"
import type { RunOptions, RunResult, ToolProject } from "./types.ts"

export type { RunOptions, RunResult } from "./types.ts"

/** Runs a tool by name with arguments already parsed, as opencode runs a model's call. */
export function runTool(
  project: ToolProject,
  name: string,
  args: unknown,
  options: RunOptions = {},
): Promise<RunResult> {
  const remote = remoteEngineOf(project)
  if (remote) return remote.run(project, { name, args }, options)
  return executeCall(project, { name, rawArguments: "" }, { parsed: args }, options)
}

/**
 * Runs a model's raw call (name + argument text) through opencode's repair first: wrong case fixed,
 * unknown names and unparsable JSON rerouted to `invalid`.
 */
export function callTool(project: ToolProject, call: RawToolCall, options: RunOptions = {}): Promise<RunResult> {
  const remote = remoteEngineOf(project)
  if (remote) return remote.run(project, { call }, options)
  return executeCall(project, call, undefined, options)
}

/**
 * Ends the bun engine's process of a project and everything its tools started. Optional: the
 * engine never keeps the process alive, and ends with it. Does nothing under the node engine.
 */
export function closeProject(project: ToolProject): void {
  remoteEngineOf(project)?.close()
  projectClientOf(project)?.stop()
}
