import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Returns at once",
  args: {},
  async execute() {
    return { output: "quick", title: "quick title", metadata: { quick: true } }
  },
})
