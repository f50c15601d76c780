import { ascendingId } from "./ascending-id.ts"
import type { ModelSelection } from "./builtins.ts"

/** The session history opencode passes: the user's message, as `{ info, parts }`. */
export function userMessage(sessionID: string, text: string, model: ModelSelection, agent: string) {
  const id = ascendingId("msg")
  return {
    info: {
      id,
      sessionID,
      role: "user",
      time: { created: Date.now() },
      agent,
      model: { providerID: model.providerID, modelID: model.modelID },
    },
    parts: [{ id: ascendingId("prt"), sessionID, messageID: id, type: "text", text }],
  }
}
