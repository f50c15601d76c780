import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Returns, and a promise it left behind rejects just after, from the next timer",
  args: {},
  async execute() {
    new Promise((resolve) => setTimeout(resolve, 0)).then(() => {
      throw new Error("rejected after execute returned")
    })
    return "returned before a later rejection"
  },
})
