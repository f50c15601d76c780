import { tool } from "@opencode-ai/plugin"
import plain from "../data/plain.txt"

export default tool({
  description: "Returns a .txt file imported without an attribute",
  args: {},
  async execute() {
    return JSON.stringify({ type: typeof plain, plain })
  },
})
