import { tool } from "@opencode-ai/plugin"

// @tool-begin
export default tool({
  description: "__DESCRIPTION__",
  args: {
    name: tool.schema.string().describe("Who to greet"),
  },
  // opencode passes the arguments as the model sent them, without validating them against `args`,
  // and `context` holds the session (sessionID, agent, directory, worktree, abort, ask).
  async execute(args) {
    return `Hello, ${args.name}!`
  },
})
// @tool-end
