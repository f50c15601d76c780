import { tool } from "@opencode-ai/plugin"

const z = tool.schema

export default tool({
  description: "Emits `count` lines of `width` copies of `char`, joined by newlines",
  args: {
    count: z.number().int(),
    width: z.number().int(),
    char: z.string().optional(),
    trailingNewline: z.boolean().optional(),
    asObject: z.boolean().optional(),
  },
  async execute(args) {
    const line = (args.char ?? "x").repeat(args.width)
    const text = Array.from({ length: args.count }, () => line).join("\n") + (args.trailingNewline ? "\n" : "")
    return args.asObject ? { title: "emitted", output: text, metadata: { mine: true } } : text
  },
})
