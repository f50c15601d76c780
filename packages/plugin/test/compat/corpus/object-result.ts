// A tool returning an object: the model reads `output`, the host keeps title and metadata.
import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Count the words of a text",
  args: {
    text: tool.schema.string(),
    unique: tool.schema.boolean().optional(),
  },
  async execute(args, context) {
    const words = args.text.split(/\s+/).filter(Boolean)
    const count = args.unique ? new Set(words).size : words.length
    context.metadata({ title: "counting" })
    return {
      title: `${count} words`,
      output: String(count),
      metadata: { count, agent: context.agent, directory: context.directory },
    }
  },
})
