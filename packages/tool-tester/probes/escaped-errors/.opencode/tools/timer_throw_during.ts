import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "A timer throws while execute is still running, then execute returns",
  args: {},
  async execute() {
    setTimeout(() => {
      throw new Error("thrown in a timer during execute")
    }, 0)
    await new Promise((resolve) => setTimeout(resolve, 200))
    return "returned after a timer threw during execute"
  },
})
