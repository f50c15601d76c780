// args given as a zod object instead of its shape: its internals are sent
import { tool } from "@opencode-ai/plugin"

export default {
  description: "args given as a zod object instead of its shape: its internals are sent",
  args: tool.schema.object({ a: tool.schema.string() }),
  async execute(args: unknown) {
    return `args: ${JSON.stringify(args)}`
  },
}
