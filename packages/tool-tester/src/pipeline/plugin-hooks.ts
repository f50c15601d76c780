import { liveHooks } from "./live.ts"
import type { LoadedTool, RunResult, ToolProject } from "../types.ts"

// The plugins' `tool.execute.before` and `tool.execute.after` hooks around a call
// (docs/opencode-contract.md#execute-hooks).

/** Before hooks, in plugin load order. Only in-place changes of output.args reach the tool. */
export async function runBeforeHooks(
  project: ToolProject,
  tool: LoadedTool,
  sessionID: string,
  callID: string,
  result: RunResult,
) {
  // Only in-place changes of output.args reach the tool: opencode keeps its own reference
  // (docs/opencode-contract.md#execute-hooks).
  const output = { args: result.args }
  for (const plugin of project.plugins) {
    const hook = liveHooks(plugin)["tool.execute.before"]
    if (typeof hook === "function") await hook({ tool: tool.id, sessionID, callID }, output)
  }
}

/** After hooks, after truncation: their changes to title, output, metadata and attachments are what the model and the part get. */
export async function runAfterHooks(
  project: ToolProject,
  tool: LoadedTool,
  sessionID: string,
  callID: string,
  result: RunResult,
) {
  const output: Record<string, unknown> = {
    title: result.title,
    output: result.output,
    metadata: result.metadata,
    attachments: result.attachments,
  }
  let ran = false
  for (const plugin of project.plugins) {
    const hook = liveHooks(plugin)["tool.execute.after"]
    if (typeof hook !== "function") continue
    ran = true
    await hook({ tool: tool.id, sessionID, callID, args: result.args }, output)
  }
  if (!ran) return
  result.title = output["title"] as string
  result.output = output["output"] as string
  result.metadata = output["metadata"] as Record<string, unknown>
  // opencode reads the attachments from the same object: a list the hooks put there is the one
  // filtered and sent, anything else is none (observed on 1.18.34).
  const attachments = output["attachments"]
  result.attachments = Array.isArray(attachments) ? attachments : undefined
}
