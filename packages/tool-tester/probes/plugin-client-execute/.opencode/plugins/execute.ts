// Keeps input.client and calls it from inside tools' execute, where opencode's server is running
// (docs/opencode-contract.md#plugin-input). Ids, times and titles differ from run to run, so the
// tools report shapes (sorted keys, types) and the values that stay the same; paths come back as
// the placeholders of the golden file.
type Client = Record<string, Record<string, (options?: unknown) => Promise<{ data?: unknown; error?: unknown }>>>
type Context = { sessionID: string; messageID: string; callID?: string }

function shape(value: unknown, depth: number): unknown {
  if (value === null || typeof value === "boolean") return value
  if (Array.isArray(value)) return value.length === 0 ? [] : [`${value.length} x`, shape(value[0], depth - 1)]
  if (typeof value !== "object") return typeof value
  if (depth <= 0) return "object"
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(value).sort()) out[key] = shape((value as Record<string, unknown>)[key], depth - 1)
  return out
}

type Part = { type: string; tool?: string; callID?: string; state?: Record<string, unknown> }
type Message = { info: Record<string, unknown>; parts: Part[] }

export const ClientExecute = async (input: { client: Client }) => {
  const client = input.client
  return {
    tool: {
      exec_agents: {
        description: "Names of client.app.agents()",
        args: {},
        execute: async () => {
          const result = await client.app!.agents!()
          return (result.data as Array<{ name: string }>).map((agent) => agent.name).join(",")
        },
      },
      exec_log: {
        description: "What client.app.log(...) gave",
        args: {},
        execute: async () => {
          const result = await client.app!.log!({ body: { service: "probe", level: "info", message: "from execute" } })
          return JSON.stringify({ data: result.data, error: result.error ?? null })
        },
      },
      exec_messages: {
        description: "client.session.messages of the calling session: roles, part types, tool parts",
        args: {},
        execute: async (_args: unknown, ctx: Context) => {
          const result = await client.session!.messages!({ path: { id: ctx.sessionID } })
          const messages = result.data as Message[]
          return JSON.stringify({
            count: messages.length,
            sameSession: messages.every((message) => message.info["sessionID"] === ctx.sessionID),
            callerMessage: messages.findIndex((message) => message.info["id"] === ctx.messageID),
            messages: messages.map((message) => ({
              role: message.info["role"],
              info: shape(message.info, 1),
              parts: message.parts.map((part) => ({
                type: part.type,
                keys: Object.keys(part).sort(),
                ...(part.type === "tool"
                  ? {
                      tool: part.tool,
                      isThisCall: part.callID === ctx.callID,
                      status: part.state?.["status"],
                      state: shape(part.state, 1),
                      input: part.state?.["input"],
                    }
                  : {}),
                ...(part.type === "text" ? { text: (part as { text?: string }).text } : {}),
              })),
            })),
          })
        },
      },
      exec_session: {
        description: "Shape of client.session.get for the calling session",
        args: {},
        execute: async (_args: unknown, ctx: Context) => {
          const result = await client.session!.get!({ path: { id: ctx.sessionID } })
          const session = result.data as Record<string, unknown>
          return JSON.stringify({
            sameId: session["id"] === ctx.sessionID,
            directory: session["directory"],
            version: session["version"],
            shape: shape(session, 2),
          })
        },
      },
      exec_config: {
        description: "Sorted keys of client.config.get()",
        args: {},
        execute: async () => {
          const result = await client.config!.get!()
          return Object.keys(result.data as object)
            .sort()
            .join(",")
        },
      },
      exec_prompt_no_reply: {
        description: "client.session.prompt of the calling session with noReply: true",
        args: {},
        execute: async (_args: unknown, ctx: Context) => {
          const body = { noReply: true, parts: [{ type: "text", text: "prompt from a tool" }] }
          const result = await client.session!.prompt!({ path: { id: ctx.sessionID }, body })
          const data = result.data as { info?: Record<string, unknown>; parts?: Array<{ type: string }> } | undefined
          return JSON.stringify({
            role: data?.info?.["role"] ?? null,
            parts: data?.parts?.map((part) => part.type) ?? null,
            error: shape(result.error, 2),
          })
        },
      },
      exec_prompt_reply: {
        description: "client.session.prompt of the calling session, asking for a reply",
        args: {},
        execute: async (_args: unknown, ctx: Context) => {
          const body = { parts: [{ type: "text", text: "prompt from a tool" }] }
          const result = await client.session!.prompt!({ path: { id: ctx.sessionID }, body })
          const data = result.data as
            | { info?: Record<string, unknown>; parts?: Array<{ type: string; text?: string }> }
            | undefined
          return JSON.stringify({
            role: data?.info?.["role"] ?? null,
            parts: data?.parts?.map((part) => (part.type === "text" ? `text: ${part.text}` : part.type)) ?? null,
            error: shape(result.error, 2),
          })
        },
      },
      exec_path: {
        description: "client.path.get()",
        args: {},
        execute: async () => JSON.stringify((await client.path!.get!()).data),
      },
    },
  }
}
