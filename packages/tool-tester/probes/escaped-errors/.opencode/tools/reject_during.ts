import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Leaves a promise to reject while execute is still running, then returns",
  args: {},
  async execute() {
    Promise.reject(new Error("rejected during execute"))
    await new Promise((resolve) => setTimeout(resolve, 200))
    return "returned after a rejection during execute"
  },
})
