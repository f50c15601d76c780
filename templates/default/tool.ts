import { tool } from "@opencode-ai/plugin"

// @tool-begin
export default tool({
  description: "__DESCRIPTION__",
  args: {
    input: tool.schema.string().describe("The text the tool works on"),
  },
  // opencode passes the arguments as the model sent them, without validating them against `args`,
  // and `context` holds the session (sessionID, agent, directory, worktree, abort, ask).
  async execute(args) {
    // A start: what execute returns is exactly what the model reads. Replace it with the tool's
    // work, and `args` with what that needs (the model reads each describe()).
    return `__TOOL_ID__ received: ${args.input}`
  },
})
// @tool-end
