// The `event` hook's view of a call (docs/opencode-contract.md#request-hooks, the request-hooks
// golden): opencode publishes `message.part.updated` for the call's tool part when the model starts
// the call (pending), when the tool starts (running) and when it ends (completed or error), and
// every plugin's `event` hook gets each one. A throwing `event` hook does not fail the call:
// opencode prints the error and goes on. The many other events of a session (session.*,
// message.updated, ...) are not reproduced.
import { liveHooks } from "./live.ts"
import type { HookError, RunResult, ToolProject } from "../types.ts"
import { ascendingId } from "./ascending-id.ts"
import { thrownText } from "./normalize-result.ts"

export type { HookError } from "../types.ts"

export type PartEvents = {
  pending(): Promise<void>
  running(input: unknown): Promise<void>
  finished(result: RunResult): Promise<void>
}

export function partEvents(
  project: ToolProject,
  call: { sessionID: string; messageID: string; callID: string; tool: string },
  errors: HookError[],
): PartEvents {
  const id = ascendingId("prt")
  let input: unknown = {}
  let start = 0
  const publish = async (state: Record<string, unknown>) => {
    const { sessionID, messageID, callID, tool } = call
    const part = { id, messageID, sessionID, type: "tool", tool, callID, state }
    const event = { type: "message.part.updated", properties: { sessionID, part, time: Date.now() } }
    for (const plugin of project.plugins) {
      const hook = liveHooks(plugin)["event"]
      if (typeof hook !== "function") continue
      try {
        await hook({ event })
      } catch (error) {
        const message = `threw on message.part.updated (${state["status"]}): ${thrownText(error)}`
        errors.push({ hook: "event", file: plugin.file, message })
      }
    }
  }
  return {
    pending: () => publish({ status: "pending", input: {}, raw: "" }),
    running(given) {
      input = given
      start = Date.now()
      return publish({ status: "running", input, time: { start } })
    },
    finished(result) {
      const time = { start, end: Date.now() }
      if (result.status === "error") {
        return publish({ status: "error", input, error: result.output, metadata: undefined, time })
      }
      const { output, title, metadata, attachments } = result
      return publish({ status: "completed", input, output, metadata, title, time, attachments })
    },
  }
}
