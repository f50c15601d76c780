import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Returns a number",
  args: {},
  async execute(): Promise<any> {
    return 42
  },
})
