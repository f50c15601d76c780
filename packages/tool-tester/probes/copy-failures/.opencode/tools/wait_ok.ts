import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Waits 500 ms and returns",
  args: {},
  async execute() {
    await new Promise((resolve) => setTimeout(resolve, 500))
    return "still running"
  },
})
