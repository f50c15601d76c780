import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "From the singular tool/ folder",
  args: {},
  async execute() {
    return "singular ran"
  },
})
