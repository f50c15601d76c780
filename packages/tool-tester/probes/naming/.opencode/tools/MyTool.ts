import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Mixed-case file name",
  args: {},
  async execute() {
    return "MyTool ran"
  },
})
