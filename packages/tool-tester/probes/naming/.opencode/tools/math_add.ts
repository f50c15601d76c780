import { tool } from "@opencode-ai/plugin"

const z = tool.schema

// Same id as math.ts's named export `add`.
export default tool({
  description: "add from math_add.ts",
  args: { a: z.number(), b: z.number() },
  async execute(args) {
    return `math_add.ts: ${args.a + args.b}`
  },
})
