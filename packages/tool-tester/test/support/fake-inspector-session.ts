// An inspector session that records the calls it is asked for and answers with id 1: for tests of
// the inspector's HTTP layer (guard, body limit) without an engine.
import type { InspectorSession } from "../../src/inspector/session.ts"

export function fakeInspectorSession(): { session: InspectorSession; calls: unknown[] } {
  const calls: unknown[] = []
  const session = {
    view: () => ({ generation: 1 }),
    history: () => [],
    call: async (request: unknown) => {
      calls.push(request)
      return { id: 1 }
    },
    // No history to replay from.
    replay: () => undefined,
  } as unknown as InspectorSession
  return { session, calls }
}
