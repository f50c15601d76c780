import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Returns an object with a title but no output",
  args: {},
  async execute(): Promise<any> {
    return { title: "only a title" }
  },
})
