import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "A z.date() argument, which JSON Schema cannot represent",
  args: { when: tool.schema.date() },
  async execute() {
    return "never offered"
  },
})
