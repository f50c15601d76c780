import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Throws the engine's JSON.parse error",
  args: {},
  async execute() {
    return JSON.parse("{bad")
  },
})
