import { tool } from "@opencode-ai/plugin"
import greeting from "../data/greeting.txt" with { type: "text" }

export default tool({
  description: 'Returns a .txt file imported with the attribute { type: "text" }',
  args: {},
  async execute() {
    return JSON.stringify({ type: typeof greeting, greeting })
  },
})
