// The hooks opencode runs around the model requests of a prompt (spec §14.2, the session-hooks
// golden): before the model's first tool call, each plugin's `chat.message` once, with the user's
// message, then `experimental.chat.system.transform` twice; before each later call of the same
// session (one more model request), `experimental.chat.system.transform` once more. Plugins create
// per-session state there; a tool that expects it fails without them. A call is the first of its
// prompt when its session id is new to the project (every call without a sessionID option is).
import { liveHooks } from "../engine/live.ts"
import type { ToolProject } from "../load-tools.ts"
import type { ModelSelection } from "./builtins.ts"
import { modelInfo } from "./tool-context.ts"

/** A message of the session history, as `ctx.messages` holds it. */
type SessionMessage = { info: { id: string; role: string }; parts: unknown[] }

const started = new WeakMap<ToolProject, Set<string>>()

export async function runSessionHooks(
  project: ToolProject,
  options: { sessionID: string; agent: string; model: ModelSelection; messages: unknown[] },
): Promise<void> {
  const seen = started.get(project) ?? new Set<string>()
  started.set(project, seen)
  const { sessionID, agent, model } = options
  if (seen.has(sessionID)) return systemTransforms(project, sessionID, model, 1)
  seen.add(sessionID)
  const user = [...(options.messages as SessionMessage[])].reverse().find((message) => message.info?.role === "user")
  for (const plugin of project.plugins) {
    const hook = liveHooks(plugin)["chat.message"]
    if (typeof hook !== "function" || !user) continue
    await hook(
      { sessionID, agent, model: { providerID: model.providerID, modelID: model.modelID }, messageID: user.info.id },
      { message: user.info, parts: user.parts },
    )
  }
  await systemTransforms(project, sessionID, model, 2)
}

// --- internal ---

async function systemTransforms(project: ToolProject, sessionID: string, model: ModelSelection, times: number) {
  // The system prompt itself is opencode's own text, not reproduced: plugins get an empty list to change.
  for (let request = 0; request < times; request++) {
    for (const plugin of project.plugins) {
      const hook = liveHooks(plugin)["experimental.chat.system.transform"]
      if (typeof hook === "function") await hook({ sessionID, model: modelInfo(model) }, { system: [] })
    }
  }
}
