import { tool } from "@opencode-ai/plugin"

const z = tool.schema

export default tool({
  description: "Echoes the arguments it was run with",
  args: { count: z.number().int().min(1), mode: z.enum(["fast", "slow"]).optional() },
  async execute(args) {
    return `validator got ${JSON.stringify(args)}`
  },
})
