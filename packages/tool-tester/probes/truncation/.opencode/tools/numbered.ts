import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Emits `count` lines `line 1`, `line 2`, ...",
  args: { count: tool.schema.number().int() },
  async execute(args) {
    return Array.from({ length: args.count }, (_, index) => `line ${index + 1}`).join("\n")
  },
})
