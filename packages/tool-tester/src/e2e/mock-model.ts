// A scripted model behind an HTTP endpoint on 127.0.0.1, for driving the real opencode offline. It
// answers each provider API of model-apis/ (OpenAI's chat completions and responses, Anthropic's
// messages, Google's generateContent, Bedrock's Converse, the AI Gateway's language model,
// Cohere's chat; model-api.ts routes them), playing one script turn per main request and recording
// every request body.
//
// opencode's title request (sent first, by the small model) gets a short text and does not consume a
// turn. e2e gives the small model an id of its own (`titleModel`), which the mock reads where each
// API names the model (the body's `model`, the path, the gateway's header): a main request that
// offers no tools (a config denying every tool) still plays its turn. Without `titleModel`, a
// request without `tools` is taken for the title request. When the script has no turns left, the
// mock answers with text so opencode ends its loop.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { isRecord } from "../_is-record.ts"
import { ToolTesterError } from "../errors.ts"
import type { PlannedTurn } from "./model-apis/answer.ts"
import { type ModelRoute, modelRouteFor } from "./model-apis/model-api.ts"
import { vertexAuthAnswer } from "./model-apis/vertex-auth.ts"
import { argumentText, type Script } from "./script.ts"

export interface CapturedRequest {
  /** The route's path, without the query: `/v1/chat/completions`, `/v1/messages`, `/v1/chat`, ... */
  path: string
  /** `title` for opencode's title request (the small model's; see `titleModel`), else `main`. */
  kind: "title" | "main"
  /** The request body as sent (parsed JSON, or the raw text when it is not JSON). */
  body: unknown
}

export interface ServedCall {
  /** Index of the script turn (0-based). */
  turn: number
  /**
   * The tool call id sent to opencode; for an API whose calls carry no id (Google's), the mock's own
   * name for the call (the provider makes up the one opencode uses).
   */
  id: string
  /** The tool name as sent. */
  name: string
  /** The argument text as sent (Google's API sends an object: the JSON text opencode gets for it). */
  arguments: string
  /** Index in `requests` of the main request this call answered. */
  requestIndex: number
}

export interface MockModel {
  /** Base URL to put in the provider's `options.baseURL` (ends with `/v1`). */
  readonly baseURL: string
  readonly port: number
  /** Every request body received, in arrival order. */
  readonly requests: CapturedRequest[]
  /** Every tool call the mock sent, in order. */
  readonly servedCalls: ServedCall[]
  /** Requests to a route the mock does not answer (404): a provider whose API it does not speak. */
  readonly unrouted: ReadonlyArray<{ method: string; path: string }>
  /** Calls of the last turn when no request has come back since (a tool is still running). */
  pendingCalls(): ServedCall[]
  close(): Promise<void>
}

export interface MockModelOptions {
  script: Script
  /** 0 (default) picks a free port. */
  port?: number
  /** What the title request gets. */
  titleText?: string
  /**
   * The model id of opencode's small model, which sends the title request: a request naming it is
   * the title request, any other a main one. Undefined: a request that offers no tools is the title
   * request (a main one without tools, when every tool is denied, is then taken for it).
   */
  titleModel?: string
  /** What main requests get after the script's last turn. */
  finalText?: string
  /** Told of each main request as it is answered, with the calls sent in that answer (none: no call is pending). */
  onMainRequest?: (calls: ReadonlyArray<Pick<ServedCall, "id" | "name">>) => void
}

export async function startMockModel(options: MockModelOptions): Promise<MockModel> {
  const host = "127.0.0.1"
  const requests: CapturedRequest[] = []
  const servedCalls: ServedCall[] = []
  const unrouted: Array<{ method: string; path: string }> = []
  let nextTurn = 0
  let nextCallNumber = 1
  let lastMainHadCalls = false

  const planTurn = (requestIndex: number, route: ModelRoute): PlannedTurn => {
    const turn = options.script.turns[nextTurn]
    if (turn === undefined) return { text: options.finalText ?? "Done.", calls: [] }
    const turnIndex = nextTurn++
    const calls = (turn.calls ?? []).map((call) => {
      const served: ServedCall = {
        turn: turnIndex,
        id: call.id ?? `call_${nextCallNumber++}`,
        name: call.tool,
        arguments: route.idlessArguments?.(argumentText(call)) ?? argumentText(call),
        requestIndex,
      }
      servedCalls.push(served)
      return served
    })
    return { text: turn.text ?? "", calls }
  }

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const path = (request.url ?? "/").split("?")[0] ?? "/"
    const signIn = vertexAuthAnswer(request.method ?? "GET", path)
    if (signIn !== undefined) {
      await readBody(request)
      response.writeHead(200, { "content-type": signIn.type })
      response.end(signIn.body)
      return
    }
    const route = request.method === "POST" ? modelRouteFor(path, request.headers) : undefined
    if (route === undefined) {
      unrouted.push({ method: request.method ?? "GET", path })
      response.writeHead(404, { "content-type": "application/json" })
      response.end(JSON.stringify({ error: { message: `mock model: no route ${request.method} ${path}` } }))
      return
    }
    const text = await readBody(request)
    const body = parseJson(text)
    const named = route.model ?? (isRecord(body) && typeof body.model === "string" ? body.model : undefined)
    const kind = (options.titleModel === undefined ? !offersTools(body) : named === options.titleModel)
      ? "title"
      : "main"
    const requestIndex = requests.push({ path, kind, body }) - 1
    let planned: PlannedTurn
    if (kind === "title") {
      planned = { text: options.titleText ?? "Scripted session", calls: [] }
    } else {
      lastMainHadCalls = false
      planned = planTurn(requestIndex, route)
      lastMainHadCalls = planned.calls.length > 0
      options.onMainRequest?.(planned.calls)
    }
    const model = named ?? "mock-model"
    const said = isRecord(body) ? body.stream : undefined
    const stream = route.stream ?? (typeof said === "boolean" ? said : (route.streamWhenUnsaid ?? true))
    const events = route.answer(planned, model, requestIndex)
    if (stream) {
      response.writeHead(200, {
        "content-type": route.streamContentType ?? "text/event-stream",
        "cache-control": "no-cache",
      })
      for (const event of events.stream) response.write(event)
      response.end()
    } else {
      response.writeHead(200, { "content-type": "application/json" })
      response.end(JSON.stringify(events.whole))
    }
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { "content-type": "application/json" })
      response.end(JSON.stringify({ error: { message: `mock model: ${String(error)}` } }))
    })
  })
  // Idle connections stay open until the client drops them or close() ends them all. Node closes
  // an idle one after 5 s by default, while Bun's fetch (opencode's) keeps it pooled for minutes
  // and does not retry a POST sent on it as it closes: on a loaded machine, where opencode's next
  // request comes about 5 s later, that race failed a run with "The socket connection was closed
  // unexpectedly", a failure of the test double, not of the tool.
  server.keepAliveTimeout = 0
  await listen(server, options.port ?? 0, host)
  const port = (server.address() as AddressInfo).port

  return {
    baseURL: `http://${host}:${port}/v1`,
    port,
    requests,
    servedCalls,
    unrouted,
    pendingCalls: () => {
      if (!lastMainHadCalls) return []
      const lastMain = requests.findLastIndex((request) => request.kind === "main")
      return servedCalls.filter((call) => call.requestIndex === lastMain)
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

// --- internal ---

/** Whether a request offers the model tools: `tools`, or Bedrock's `toolConfig.tools`. */
function offersTools(body: unknown): boolean {
  if (!isRecord(body)) return false
  return Array.isArray(body.tools) || (isRecord(body.toolConfig) && Array.isArray(body.toolConfig.tools))
}

export function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    request.on("error", reject)
  })
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      if (error.code === "EADDRINUSE") {
        reject(
          new ToolTesterError(
            "PORT_IN_USE",
            `The mock model cannot listen on ${host}:${port}: the port is in use. Pick another port, or 0 for a free one.`,
            { data: { port }, cause: error },
          ),
        )
      } else {
        reject(error)
      }
    }
    server.once("error", onError)
    server.listen(port, host, () => {
      server.off("error", onError)
      resolve()
    })
  })
}
