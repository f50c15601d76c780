import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "An ordinary tool next to the broken one",
  args: { text: tool.schema.string() },
  async execute(args) {
    return args.text
  },
})
