// Where a loaded project's tools run (engine-of.ts), chosen once, when the project loads (load-tools.ts): this
// process (local-engine.ts: the node engine, or tool-tester itself running in Bun) or an engine's
// process that keeps the live tools (engine-client/remote-project.ts: the bun engine). The public
// functions ask the project for its engine and call it; neither they nor the matchers test which
// one it is. One interface, two implementations, as vitest's pools are.
import type { RawToolCall } from "../pipeline/repair-call.ts"
import type { ToolSchema } from "../pipeline/tool-schemas.ts"
import type { Result } from "../errors.ts"
import { ToolTesterError } from "../errors.ts"
import type { ListOptions, RunOptions, RunResult, ToolProject } from "../types.ts"

/** A tool call by name with parsed arguments (runTool), or a model's raw call (callTool). */
export type CallTarget = { name: string; args: unknown } | { call: RawToolCall }

export interface ProjectEngine {
  /** Runs one call of the project's tools. */
  run(project: ToolProject, target: CallTarget, options: RunOptions): Promise<RunResult>
  /** The project's tool schemas as the provider receives them (getToolSchemas). */
  schemas(project: ToolProject, options: ListOptions): Promise<Result<ToolSchema[]>>
  /**
   * doctor's findings, where the live tools are: only an engine's process answers it; in this
   * process the caller runs doctor itself (tasks/doctor-task.ts is above the public functions).
   * An aborted `signal` ends that work (and the engine's process) and rejects with its reason.
   */
  doctor?(options: { cwd: string }, signal?: AbortSignal): Promise<unknown>
  /** Ends what the engine keeps for the project (its process); later calls fail. */
  close(): void
}

/** What a call on a project closeProject() closed rejects with, whichever engine it was loaded in. */
export function projectClosed(): ToolTesterError {
  return new ToolTesterError(
    "ENGINE_FAILED",
    "this project was closed (closeProject): load it again with loadTools() to call its tools",
  )
}
