// What the eval runner watches on its server while trials run:
// - `GET /session/status`, once a second: each trial session's status, for the retries opencode
//   announces when a provider fails (trial.ts gives up after a few);
// - the event stream (`GET /event`): a tool that asks the user (a rule the user's config leaves at
//   "ask", the `question` tool) would wait forever on a headless server, so each
//   `permission.asked` is answered "reject" and each `question.asked` rejected, as `opencode run`
//   answers them from the same stream (every session of this server is the eval's). The model
//   reads the rejection as the call's error, and the trial goes on.

import type { ServerApi } from "./server-api.ts"
import type { SessionStatus, TrialSession } from "./trial.ts"

export function watchServer(api: ServerApi, sessions: Map<string, TrialSession>): { stop(): void } {
  let busy = false
  const timer = setInterval(() => {
    if (busy) return
    busy = true
    api
      .get<Record<string, SessionStatus>>("/session/status")
      .then((statuses) => {
        for (const [sessionID, status] of Object.entries(statuses ?? {})) sessions.get(sessionID)?.onStatus(status)
      })
      .catch(() => undefined)
      .finally(() => {
        busy = false
      })
  }, 1000)
  const events = new AbortController()
  answerRequests(api, events.signal).catch(() => undefined)
  return {
    stop: () => {
      clearInterval(timer)
      events.abort()
    },
  }
}

// --- internal ---

const rejection = "tool-tester eval answers no request for permission: nobody is there to answer."

async function answerRequests(api: ServerApi, signal: AbortSignal): Promise<void> {
  const stream = await api.stream("/event", signal)
  let buffer = ""
  for await (const chunk of stream) {
    buffer += chunk
    let end = buffer.indexOf("\n\n")
    while (end !== -1) {
      const frame = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      end = buffer.indexOf("\n\n")
      const data = frame
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).trim())
        .join("\n")
      let event: { type?: string; properties?: { id?: string } }
      try {
        event = JSON.parse(data)
      } catch {
        continue
      }
      const id = event.properties?.id
      if (typeof id !== "string") continue
      if (event.type === "permission.asked") {
        api.post(`/permission/${id}/reply`, { reply: "reject", message: rejection }).catch(() => undefined)
      } else if (event.type === "question.asked") {
        api.post(`/question/${id}/reject`, {}).catch(() => undefined)
      }
    }
  }
}
