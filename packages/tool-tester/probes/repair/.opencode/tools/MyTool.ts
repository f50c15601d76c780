import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "A mixed-case tool id",
  args: {},
  async execute() {
    return "MyTool ran"
  },
})
