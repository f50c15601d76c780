import { tool } from "@opencode-ai/plugin"

// Reports the execute context in a form that does not change between runs: ids by their prefix,
// functions and objects by their type.
export default tool({
  description: "Describes the context opencode passes to execute",
  args: {},
  async execute(_args, context) {
    const record = context as unknown as Record<string, unknown>
    const extra = (record.extra ?? {}) as Record<string, unknown>
    const messages = Array.isArray(record.messages) ? (record.messages as Array<Record<string, unknown>>) : []
    const types: Record<string, string> = {}
    for (const key of Object.keys(record)) {
      const value = record[key]
      types[key] = value === null ? "null" : Array.isArray(value) ? "array" : typeof value
    }
    return JSON.stringify(
      {
        keys: Object.keys(record),
        types,
        sessionID: String(record.sessionID).slice(0, 4),
        messageID: String(record.messageID).slice(0, 4),
        callID: record.callID,
        agent: record.agent,
        directory: record.directory,
        worktree: record.worktree,
        cwd: process.cwd(),
        abortIsSignal: context.abort instanceof AbortSignal,
        aborted: context.abort.aborted,
        extraKeys: Object.keys(extra),
        extraModelKeys: Object.keys((extra.model ?? {}) as object),
        bypassAgentCheck: extra.bypassAgentCheck,
        promptOps: extra.promptOps,
        messageCount: messages.length,
        messageKeys: messages.map((message) => Object.keys(message)),
        messageRoles: messages.map((message) => (message.info as { role?: string } | undefined)?.role),
        metadataReturns: typeof context.metadata({ title: "probe" }),
      },
      null,
      2,
    )
  },
})
