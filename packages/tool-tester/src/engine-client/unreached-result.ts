// The result of a call whose tool never answered (it ended the engine, or kept it busy past its
// timeout): worked out on the Node side from the project's snapshot, with the repair opencode
// applies, so `id`, `repaired` and `rerouted` say which tool the call went to.
import type { ToolTesterErrorCode } from "../errors.ts"
import { DEFAULT_MODEL } from "../pipeline/builtins.ts"
import { defaultDataDirectory } from "../pipeline/data-directory.ts"
import { agentRules } from "../pipeline/permissions.ts"
import type { RawToolCall } from "../pipeline/repair-call.ts"
import { resolveCall } from "../pipeline/repair-call.ts"
import { preparedTools } from "../pipeline/tool-list.ts"
import type { RunOptions, RunResult, ToolProject } from "../types.ts"

export function unreachedResult(
  project: ToolProject,
  call: RawToolCall,
  options: RunOptions,
  outcome: { durationMs: number; error: { code: ToolTesterErrorCode; message: string } },
): RunResult {
  const rules = agentRules({
    config: project.config.permission,
    overrides: options.permissions,
    dataDirectory: options.dataDirectory ?? defaultDataDirectory(),
  })
  const resolved = resolveCall(call, preparedTools(project, { ...DEFAULT_MODEL, ...options.model }, rules))
  return {
    name: call.name,
    id: resolved.kind === "run" ? resolved.id : resolved.kind === "failed" ? call.name : "invalid",
    status: "error",
    output: outcome.error.message,
    title: null,
    metadata: null,
    attachments: undefined,
    truncated: false,
    outputPath: undefined,
    args: resolved.kind === "failed" ? call.rawArguments : resolved.args,
    repaired: resolved.kind === "failed" || (resolved.kind === "run" && resolved.repaired),
    rerouted: resolved.kind === "invalid",
    asks: [],
    metadataCalls: [],
    durationMs: outcome.durationMs,
    error: outcome.error,
  }
}
