import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Returns metadata that contains itself, which opencode cannot JSON.stringify",
  args: {},
  async execute() {
    const metadata: Record<string, unknown> = { name: "loop" }
    metadata["self"] = metadata
    return { output: "x", metadata }
  },
})
