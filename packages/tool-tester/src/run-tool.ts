import { remoteEngineOf } from "./engine/bun/remote-project.ts"
import type { ToolTesterErrorCode } from "./errors.ts"
import type { ToolProject } from "./load-tools.ts"
import type { ModelSelection } from "./pipeline/builtins.ts"
import { executeCall } from "./pipeline/execute-call.ts"
import type { ThrownDetails } from "./pipeline/normalize-result.ts"
import type { HookError } from "./pipeline/part-events.ts"
import type { PermissionOverrides } from "./pipeline/permissions.ts"
import type { RawToolCall } from "./pipeline/repair-call.ts"
import type { AskRecord, MetadataRecord } from "./pipeline/tool-context.ts"

export type RunOptions = {
  /** The provider npm package, provider id and model id: they change the tool list and `ctx.extra.model`. */
  model?: Partial<ModelSelection>
  /** Validate arguments with the tool's zod schema first, like opencode's built-in wrapper. Not what opencode 1.18 does for custom tools. */
  validate?: boolean
  /** Permission rules added after the config's: `deny: ["task"]` switches the truncation hint. */
  permissions?: PermissionOverrides
  /** Override the config's `tool_output.max_lines` / `max_bytes`. */
  maxLines?: number
  maxBytes?: number
  /** opencode's data folder; truncated outputs go to `<dataDirectory>/tool-output/`. Default: a folder under the OS temp dir, never your real opencode data. */
  dataDirectory?: string
  /** Stop waiting after this many milliseconds: the tool's abort signal fires and the run reports TOOL_TIMEOUT. */
  timeoutMs?: number
  agent?: string
  sessionID?: string
  messageID?: string
  callID?: string
  /** The session history passed as `ctx.messages`. Default: the user message that asked for the call. */
  messages?: unknown[]
  /** The text of that default user message. Default: "tool-tester". */
  prompt?: string
  /** Aborts the tool (its `ctx.abort` fires). */
  signal?: AbortSignal
}

/** What happened to one call, with the exact text the model receives in `output`. */
export type RunResult = {
  /** The name as called. */
  name: string
  /** The tool that ran: the repaired name, or `invalid` when the call was rerouted. */
  id: string
  /** What opencode records on the tool part. */
  status: "completed" | "error"
  /** Exactly what the model reads. */
  output: string
  /**
   * The part's title and metadata; null when the call failed: opencode stores none then
   * (docs/opencode-contract.md#failed-call-parts).
   */
  title: string | null
  metadata: Record<string, unknown> | null
  attachments: unknown[] | undefined
  truncated: boolean
  outputPath: string | undefined
  /** The arguments the tool received (after `tool.execute.before` hooks, or parsed when validating). */
  args: unknown
  /** True when the name was lowercased to find the tool. */
  repaired: boolean
  /** True when the call went to `invalid` (unknown name or unparsable arguments). */
  rerouted: boolean
  asks: AskRecord[]
  metadataCalls: MetadataRecord[]
  durationMs: number
  /** Errors of plugins' `event` hooks during the call: opencode prints them and goes on, so the call is not failed. */
  hookErrors?: HookError[]
  /** Why the call failed, when it did (the model still reads `output`). */
  error?: {
    code: ToolTesterErrorCode
    message: string
    /** What the tool threw, beyond the message the model reads (TOOL_THREW). */
    thrown?: ThrownDetails
  }
}

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
}
