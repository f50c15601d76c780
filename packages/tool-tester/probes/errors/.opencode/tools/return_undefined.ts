import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Returns undefined",
  args: {},
  async execute(): Promise<any> {
    return undefined
  },
})
