import { tool } from "@opencode-ai/plugin"

const z = tool.schema

export default tool({
  description: "Arrays, nested objects, records and tuples",
  args: {
    names: z.array(z.string()),
    someNames: z.array(z.string()).min(1).max(3),
    anything: z.array(z.any()),
    point: z.object({ x: z.number(), y: z.string().optional() }),
    strictPoint: z.object({ x: z.number() }).strict(),
    loosePoint: z.object({ x: z.number() }).passthrough(),
    scores: z.record(z.string(), z.number()),
    pair: z.tuple([z.string(), z.number()]),
  },
  async execute(args) {
    return JSON.stringify(args)
  },
})
