import { tool } from "@opencode-ai/plugin"

// The agent opencode gives a tool: the session's.
export default tool({
  description: "Reports the agent the call runs for",
  args: {},
  async execute(_args, context) {
    return `agent=${context.agent}`
  },
})
