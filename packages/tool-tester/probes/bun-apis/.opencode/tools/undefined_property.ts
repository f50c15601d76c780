import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Reads a property of undefined",
  args: {},
  async execute() {
    const o: any = undefined
    return o.missing
  },
})
