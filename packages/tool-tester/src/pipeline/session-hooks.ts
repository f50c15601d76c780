// The hooks opencode runs around the model requests of a prompt
// (docs/opencode-contract.md#session-hooks, the session-hooks and request-hooks goldens). Before
// the model's first tool call of a prompt there were two requests (the title, then the main one):
// each plugin's `chat.message` runs once with the user's message, then, for each request,
// `experimental.chat.system.transform`, `chat.params` and `chat.headers`. Each later call of the
// same session is one more request. Plugins create per-session state there; a tool that expects it
// fails without them. A call is the first of its prompt when its session id is new to the project
// (every call without a sessionID option is).
import { liveHooks } from "./live.ts"
import type { ToolProject } from "../types.ts"
import type { ModelSelection } from "./builtins.ts"
import { modelInfo } from "./tool-context.ts"

/** A message of the session history, as `ctx.messages` holds it. */
type SessionMessage = { info: { id: string; role: string }; parts: unknown[] }

/** opencode's cap of a request's output tokens; its default when the model's own limit is unknown. */
const MAX_OUTPUT_TOKENS = 32_000

const started = new WeakMap<ToolProject, Set<string>>()

export async function runSessionHooks(
  project: ToolProject,
  options: { sessionID: string; agent: string; model: ModelSelection; messages: unknown[] },
): Promise<void> {
  const seen = started.get(project) ?? new Set<string>()
  started.set(project, seen)
  const { sessionID, agent, model } = options
  const user = [...(options.messages as SessionMessage[])].reverse().find((message) => message.info?.role === "user")
  const request = { project, sessionID, agent, model, user }
  if (seen.has(sessionID)) return modelRequests(request, 1)
  seen.add(sessionID)
  for (const plugin of project.plugins) {
    const hook = liveHooks(plugin)["chat.message"]
    if (typeof hook !== "function" || !user) continue
    await hook(
      { sessionID, agent, model: { providerID: model.providerID, modelID: model.modelID }, messageID: user.info.id },
      { message: user.info, parts: user.parts },
    )
  }
  await modelRequests(request, 2)
}

// --- internal ---

type Request = {
  project: ToolProject
  sessionID: string
  agent: string
  model: ModelSelection
  user: SessionMessage | undefined
}

async function modelRequests(request: Request, times: number): Promise<void> {
  const { project, sessionID, agent, model, user } = request
  const info = modelInfo(model)
  for (let count = 0; count < times; count++) {
    // Each hook's output object is shared by the plugins of one request, in load order, as opencode does.
    // The system prompt itself is opencode's own text, not reproduced: plugins get an empty list to change.
    await trigger(project, "experimental.chat.system.transform", { sessionID, model: info }, { system: [] })
    // What plugins change in chat.params and chat.headers goes to the model request, which tool-tester does not make.
    const input = { sessionID, agent, model: info, provider: providerInfo(model, info), message: user?.info }
    const params = {
      temperature: undefined,
      topP: undefined,
      topK: undefined,
      maxOutputTokens: MAX_OUTPUT_TOKENS,
      options: {},
    }
    await trigger(project, "chat.params", input, params)
    await trigger(project, "chat.headers", input, { headers: {} })
  }
}

async function trigger(project: ToolProject, name: string, input: unknown, output: unknown): Promise<void> {
  for (const plugin of project.plugins) {
    const hook = liveHooks(plugin)[name]
    if (typeof hook === "function") await hook(input, output)
  }
}

/** The provider as `chat.params` receives it (the shape observed on opencode 1.18.34, not the types' `ProviderContext`). */
function providerInfo(model: ModelSelection, info: Record<string, unknown>): Record<string, unknown> {
  return {
    id: model.providerID,
    name: model.providerID,
    env: [],
    options: {},
    source: "config",
    models: { [model.modelID]: info },
  }
}
