import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Throws an Error",
  args: {},
  async execute() {
    throw new Error("boom from tool")
  },
})
