import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Returns metadata holding a function, which opencode cannot structuredClone",
  args: {},
  async execute() {
    return { output: "x", metadata: { callback: () => 1 } }
  },
})
