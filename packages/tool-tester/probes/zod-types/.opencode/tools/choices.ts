import { tool } from "@opencode-ai/plugin"

const z = tool.schema

export default tool({
  description: "Enums, literals, unions, discriminated unions and intersections",
  args: {
    level: z.enum(["a", "b", "c"]),
    objectEnum: z.enum({ A: "a", B: "b" }),
    fixedText: z.literal("fixed"),
    fixedNumber: z.literal(3),
    numberChoice: z.literal([1, 2, 3]),
    textOrNumber: z.union([z.string(), z.number()]),
    textNumberOrNull: z.union([z.string(), z.number(), z.null()]),
    oneOrTwo: z.union([z.literal(1), z.literal(2)]),
    shape: z.discriminatedUnion("kind", [
      z.object({ kind: z.literal("a"), size: z.number() }),
      z.object({ kind: z.literal("b"), label: z.string() }),
    ]),
    both: z.intersection(z.object({ left: z.string() }), z.object({ right: z.number() })),
  },
  async execute(args) {
    return JSON.stringify(args)
  },
})
