import { tool } from "@opencode-ai/plugin"

// Replaces the built-in bash.
export default tool({
  description: "CUSTOM bash override",
  args: { cmd: tool.schema.string().describe("command to pretend to run") },
  async execute(args) {
    return `custom bash got ${JSON.stringify(args)}`
  },
})
