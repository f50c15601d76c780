import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Fetches a closed port and lets the rejection through",
  args: {},
  async execute() {
    await fetch("http://127.0.0.1:9/")
    return "not reached"
  },
})
