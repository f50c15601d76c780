import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Returns an empty string",
  args: {},
  async execute() {
    return ""
  },
})
