import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Returns an object with only output",
  args: {},
  async execute() {
    return { output: "just output" }
  },
})
