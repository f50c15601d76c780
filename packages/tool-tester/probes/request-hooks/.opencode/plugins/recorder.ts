// Records what the hooks around model requests see: chat.params and chat.headers (inputs and the
// output they may change) and the `event` hook's tool-part updates. A tool reports them; events of
// the call in progress are left out (opencode delivers events to plugins asynchronously).
import type { Plugin } from "@opencode-ai/plugin"
import { tool } from "@opencode-ai/plugin"

export const Recorder: Plugin = async () => {
  let params = 0
  let headers = 0
  let paramsSeen = ""
  let headersSeen = ""
  const toolEvents = new Map<string, string[]>()
  const report = (current: string) => {
    const earlier = [...toolEvents].filter(([callID]) => callID !== current).map(([, states]) => states.join(","))
    return `chat.params=${params} chat.headers=${headers} params=${paramsSeen} headers=${headersSeen} earlier=${earlier.join(" | ")}`
  }
  return {
    "chat.params": async (input, output) => {
      params++
      const message = input.message as { role?: string; id?: string }
      paramsSeen = `in:${Object.keys(input).sort()} message:${message.role} model:${input.model.id} provider:${input.provider.id} source:${input.provider.source} out:${Object.keys(output).sort()}=${JSON.stringify(output)}`
    },
    "chat.headers": async (input, output) => {
      headers++
      headersSeen = `in:${Object.keys(input).sort()} out:${JSON.stringify(output)}`
    },
    event: async ({ event }) => {
      if (event.type !== "message.part.updated") return
      const part = event.properties.part as {
        type: string
        tool?: string
        callID?: string
        state?: Record<string, unknown>
      }
      if (part.type !== "tool" || !part.callID || !part.state) return
      const states = toolEvents.get(part.callID) ?? []
      states.push(`${part.tool}:${part.state.status}:${Object.keys(part.state).sort().join("+")}`)
      toolEvents.set(part.callID, states)
    },
    tool: {
      report: tool({
        description: "Reports what the request hooks and tool-part events showed so far",
        args: {},
        async execute(_args, context) {
          return report(context.callID ?? "")
        },
      }),
      fail: tool({
        description: "Always throws",
        args: {},
        async execute() {
          throw new Error("planned failure")
        },
      }),
    },
  }
}
