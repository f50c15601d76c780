import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Returns metadata holding a BigInt, which opencode cannot JSON.stringify",
  args: {},
  async execute() {
    return { output: "x", metadata: { size: 1n } }
  },
})
