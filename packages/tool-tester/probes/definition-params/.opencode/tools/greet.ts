import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Greets someone",
  args: { name: tool.schema.string() },
  async execute(args) {
    return `Hello, ${args.name}!`
  },
})
