// A tool that asks permission before touching a path outside the project.
import type { ToolContext } from "@opencode-ai/plugin"
import { tool } from "@opencode-ai/plugin"

async function confirm(context: ToolContext, target: string) {
  await context.ask({
    permission: "external_directory",
    patterns: [`${target}/*`],
    always: [`${target}/*`],
    metadata: { filepath: target },
  })
}

export default tool({
  description: "Lists a folder after asking permission",
  args: { folder: tool.schema.string(), limit: tool.schema.number().int().min(1).default(10) },
  async execute(args, context) {
    await confirm(context, args.folder)
    if (context.abort.aborted) return "aborted"
    return `${args.folder} (${args.limit}) in ${context.worktree}`
  },
})
