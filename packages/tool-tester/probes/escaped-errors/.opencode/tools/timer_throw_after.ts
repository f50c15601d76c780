import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Returns, and a timer it set throws just after",
  args: {},
  async execute() {
    setTimeout(() => {
      throw new Error("thrown in a timer after execute returned")
    }, 0)
    return "returned before a timer threw"
  },
})
