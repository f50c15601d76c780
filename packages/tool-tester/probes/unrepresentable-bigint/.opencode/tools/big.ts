import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "A z.bigint() argument, which JSON Schema cannot represent",
  args: { size: tool.schema.bigint() },
  async execute() {
    return "never offered"
  },
})
