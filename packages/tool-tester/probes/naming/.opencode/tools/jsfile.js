import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "A plain JavaScript tool file",
  args: {},
  async execute() {
    return "jsfile ran"
  },
})
