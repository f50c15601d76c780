// What the eval runner watches on its server while trials run, once a second:
// - `GET /session/status`: each trial session's status, for the retries opencode announces when
//   a provider fails (trial.ts gives up after a few);
// - `GET /permission` and `GET /question`: a tool that asks the user (a rule left at "ask" by the
//   user's config, the `question` tool) would wait forever on a headless server, so every pending
//   request is answered "reject" (every session of this server is the eval's). The model reads
//   the rejection as the call's error, and the trial goes on.

import type { ServerApi } from "./server-api.ts"
import type { SessionStatus, TrialSession } from "./trial.ts"

export function watchServer(api: ServerApi, sessions: Map<string, TrialSession>): { stop(): void } {
  let busy = false
  const rejected = new Set<string>()
  const look = async () => {
    const [statuses, permissions, questions] = await Promise.all([
      api.get<Record<string, SessionStatus>>("/session/status").catch(() => ({})),
      api.get<Array<{ id: string }>>("/permission").catch(() => []),
      api.get<Array<{ id: string }>>("/question").catch(() => []),
    ])
    for (const [sessionID, status] of Object.entries(statuses)) sessions.get(sessionID)?.onStatus(status)
    const reply = {
      reply: "reject",
      message: "tool-tester eval answers no request for permission: nobody is there to answer.",
    }
    for (const request of permissions ?? []) {
      if (rejected.has(request.id)) continue
      rejected.add(request.id)
      await api.post(`/permission/${request.id}/reply`, reply).catch(() => undefined)
    }
    for (const request of questions ?? []) {
      if (rejected.has(request.id)) continue
      rejected.add(request.id)
      await api.post(`/question/${request.id}/reject`, {}).catch(() => undefined)
    }
  }
  const timer = setInterval(() => {
    if (busy) return
    busy = true
    look().finally(() => {
      busy = false
    })
  }, 1000)
  return { stop: () => clearInterval(timer) }
}
