// The sessions of tool-tester's calls, made real on the project's opencode server when a plugin
// asks the client about one (docs/fidelity.md#inputclient). A call's `ctx.sessionID` is made up
// before the tool runs (starting a server for every call would cost every project); the first
// request that names it creates a real session on the server holding what opencode's session holds
// at that moment: the user's message (sent with `noReply`, so no model runs) and, in the message
// list, the running assistant message with this call's tool part. Requests carry the real id to the
// server; answers carry the call's id back to the plugin.
import { ToolTesterError } from "../errors.ts"
import { serverError } from "../opencode/opencode-server.ts"

/** What opencode's session holds while one call runs: the user's text and the assistant's tool part. */
export type CallSession = {
  sessionID: string
  /** The assistant message the tool part belongs to (`ctx.messageID`). */
  messageID: string
  callID: string
  tool: string
  agent: string
  model: { providerID: string; modelID: string }
  prompt: string
  directory: string
  worktree: string
  /** The tool part's state at this moment (pending, running, completed, error). */
  state(): Record<string, unknown>
}

/** Sends one request to the server as it is (the SDK's fetch, with the server's URL and auth). */
export type SendToServer = (request: Request) => Promise<Response>

export class CallSessions {
  readonly #calls = new Map<string, CallSession>()
  readonly #real = new Map<string, Promise<string>>()

  /** Registers a call's session; `done()` forgets it again when the call ends. */
  register(session: CallSession): () => void {
    this.#calls.set(session.sessionID, session)
    return () => this.#calls.delete(session.sessionID)
  }

  /** `request`, with every call session it names made real on the server and its id swapped. */
  async fetch(request: Request, send: SendToServer): Promise<Response> {
    const url = request.url
    const body = request.method === "GET" || request.method === "HEAD" ? "" : await request.clone().text()
    const named = [...this.#calls.values()].filter(
      (call) => url.includes(call.sessionID) || body.includes(call.sessionID),
    )
    if (named.length === 0) return send(request)
    const swaps: Array<{ call: CallSession; real: string }> = []
    for (const call of named) swaps.push({ call, real: await this.#realize(call, send) })
    let nextUrl = url
    let nextBody = body
    for (const { call, real } of swaps) {
      nextUrl = nextUrl.split(call.sessionID).join(real)
      nextBody = nextBody.split(call.sessionID).join(real)
    }
    const init: RequestInit = { method: request.method, headers: request.headers, signal: request.signal }
    if (nextBody !== "") init.body = nextBody
    const response = await send(new Request(nextUrl, init))
    if (!(response.headers.get("content-type") ?? "").includes("json")) return response
    let text = await response.text()
    let value: unknown
    for (const { real, call } of swaps) text = text.split(real).join(call.sessionID)
    try {
      value = JSON.parse(text)
    } catch {
      return new Response(text, { status: response.status, headers: response.headers })
    }
    const only = swaps.length === 1 ? swaps[0]!.call : undefined
    if (only && Array.isArray(value) && isMessageList(new URL(nextUrl).pathname)) {
      value = [...value, assistantMessage(only, value)]
      text = JSON.stringify(value)
    }
    const headers = new Headers(response.headers)
    headers.delete("content-length")
    return new Response(text, { status: response.status, headers })
  }

  /** The real session of `call` on the server, created once: a session and the user's message. */
  #realize(call: CallSession, send: SendToServer): Promise<string> {
    const known = this.#real.get(call.sessionID)
    if (known) return known
    const created = (async () => {
      const json = { "content-type": "application/json" }
      const session = await send(
        new Request(`${ORIGIN}/session`, { method: "POST", headers: json, body: JSON.stringify({}) }),
      )
      const text = await session.text()
      const id = session.ok ? (JSON.parse(text) as { id?: unknown }).id : undefined
      if (typeof id !== "string") {
        throw new ToolTesterError(
          "CLIENT_UNAVAILABLE",
          `opencode could not create the session of this call (${session.status}): ${serverError(text)}`,
        )
      }
      await send(
        new Request(`${ORIGIN}/session/${encodeURIComponent(id)}/message`, {
          method: "POST",
          headers: json,
          body: JSON.stringify({
            noReply: true,
            agent: call.agent,
            model: call.model,
            parts: [{ type: "text", text: call.prompt }],
          }),
        }),
      )
      return id
    })()
    created.catch(() => this.#real.delete(call.sessionID))
    this.#real.set(call.sessionID, created)
    return created
  }
}

/** The origin requests built here carry; the sender puts the server's own in its place. */
export const ORIGIN = "http://tool-tester.invalid"

// --- internal ---

function isMessageList(pathname: string): boolean {
  return /\/session\/[^/]+\/message\/?$/.test(pathname)
}

/** The assistant message opencode holds while the call runs: a step start and the tool part. */
function assistantMessage(call: CallSession, messages: unknown[]): Record<string, unknown> {
  const user = [...messages]
    .reverse()
    .find((message) => (message as { info?: { role?: string } }).info?.role === "user") as
    | { info: { id: string } }
    | undefined
  const { sessionID, messageID } = call
  const now = Date.now()
  return {
    info: {
      id: messageID,
      sessionID,
      role: "assistant",
      time: { created: now },
      parentID: user?.info.id,
      modelID: call.model.modelID,
      providerID: call.model.providerID,
      mode: call.agent,
      agent: call.agent,
      path: { cwd: call.directory, root: call.worktree },
      cost: 0,
      tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
    },
    parts: [
      { id: `${messageID}-step`, sessionID, messageID, type: "step-start" },
      {
        id: `${messageID}-tool`,
        sessionID,
        messageID,
        type: "tool",
        callID: call.callID,
        tool: call.tool,
        state: call.state(),
      },
    ],
  }
}
