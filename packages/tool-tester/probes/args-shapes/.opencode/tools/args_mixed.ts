// a zod arg next to a JSON Schema arg: both are sent verbatim, the zod one as its internals
import { tool } from "@opencode-ai/plugin"

export default {
  description: "a zod arg next to a JSON Schema arg: both are sent verbatim, the zod one as its internals",
  args: { a: tool.schema.string(), b: { type: "string" } },
  async execute(args: unknown) {
    return `args: ${JSON.stringify(args)}`
  },
}
