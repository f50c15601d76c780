import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Fetches a closed port and returns String(error)",
  args: {},
  async execute() {
    try {
      await fetch("http://127.0.0.1:9/")
      return "not reached"
    } catch (error) {
      return String(error)
    }
  },
})
