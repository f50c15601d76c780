import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Returns title, output and metadata",
  args: {},
  async execute() {
    return { title: "Custom Title", output: "object output", metadata: { k: 1, nested: { a: "b" } } }
  },
})
