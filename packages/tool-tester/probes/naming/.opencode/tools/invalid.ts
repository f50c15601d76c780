import { tool } from "@opencode-ai/plugin"

const z = tool.schema

// Replaces the built-in `invalid` tool that bad calls are rerouted to.
export default tool({
  description: "CUSTOM invalid override",
  args: { tool: z.string(), error: z.string() },
  async execute(args) {
    return `custom invalid got tool=${args.tool} error=${args.error}`
  },
})
