import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Asks for an allowed permission",
  args: {},
  async execute(_args, context) {
    const answer = await context.ask({ permission: "probe_ok", patterns: ["*"], always: ["*"], metadata: {} })
    return `ask resolved: ${JSON.stringify(answer)}`
  },
})
