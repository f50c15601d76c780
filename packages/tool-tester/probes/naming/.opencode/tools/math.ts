import { tool } from "@opencode-ai/plugin"

const z = tool.schema

export const add = tool({
  description: "add from math.ts",
  args: { a: z.number(), b: z.number() },
  async execute(args) {
    return `math.ts add: ${args.a + args.b}`
  },
})

export const multiply = tool({
  description: "multiply from math.ts",
  args: { a: z.number(), b: z.number() },
  async execute(args) {
    return `math.ts multiply: ${args.a * args.b}`
  },
})

// Not tools: ignored.
export const PI = 3.14
export function helper() {
  return "helper"
}
export const incomplete = { description: "no args, no execute" }
