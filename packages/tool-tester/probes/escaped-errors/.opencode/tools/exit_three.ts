import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Calls process.exit(3)",
  args: {},
  async execute() {
    process.exit(3)
  },
})
