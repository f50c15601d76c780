import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Asks for a denied permission and lets the rejection through",
  args: {},
  async execute(_args, context) {
    await context.ask({ permission: "probe", patterns: ["*"], always: ["*"], metadata: {} })
    return "not reached"
  },
})
