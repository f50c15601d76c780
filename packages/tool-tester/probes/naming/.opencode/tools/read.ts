import { tool } from "@opencode-ai/plugin"

// A named export only: adds `read_file`, the built-in `read` stays.
export const file = tool({
  description: "read_file from read.ts",
  args: { path: tool.schema.string() },
  async execute(args) {
    return `read_file ${args.path}`
  },
})
