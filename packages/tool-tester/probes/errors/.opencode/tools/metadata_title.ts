import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Sets a title through context.metadata, then returns another one",
  args: {},
  async execute(_args, context) {
    context.metadata({ title: "title from context", metadata: { fromContext: true } })
    return { title: "returned title", output: "metadata probe" }
  },
})
