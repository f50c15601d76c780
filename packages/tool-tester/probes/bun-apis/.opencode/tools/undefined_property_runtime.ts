import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Reads a property of an undefined value known only at run time (a missing argument)",
  args: {},
  async execute(args) {
    const o = (args as Record<string, any>).notGiven
    return o.missing
  },
})
