// args given as a zod string: its internals are sent
import { tool } from "@opencode-ai/plugin"

export default {
  description: "args given as a zod string: its internals are sent",
  args: tool.schema.string(),
  async execute(args: unknown) {
    return `args: ${JSON.stringify(args)}`
  },
}
