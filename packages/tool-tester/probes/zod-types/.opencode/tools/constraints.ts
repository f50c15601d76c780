import { tool } from "@opencode-ai/plugin"

const z = tool.schema

export default tool({
  description: "String and number constraints and formats",
  args: {
    short: z.string().min(2).max(10),
    code: z.string().length(4),
    lower: z.string().regex(/^[a-z]+$/),
    email: z.string().email(),
    link: z.string().url(),
    id: z.string().uuid(),
    percent: z.number().min(0).max(100),
    fraction: z.number().gt(0).lt(1),
    positive: z.number().positive(),
    fives: z.number().multipleOf(5),
  },
  async execute(args) {
    return JSON.stringify(args)
  },
})
