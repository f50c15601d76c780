import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "No arguments at all",
  args: {},
  async execute(args) {
    return `args: ${JSON.stringify(args)}`
  },
})
