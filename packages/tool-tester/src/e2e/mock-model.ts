// A scripted model behind an OpenAI-compatible HTTP endpoint on 127.0.0.1, for driving the real
// opencode offline. It answers `POST /v1/chat/completions` (the `@ai-sdk/openai-compatible`
// provider) and `POST /v1/responses` (the `@ai-sdk/openai` provider) with server-sent events,
// playing one script turn per main request and recording every request body.
//
// Requests without `tools` (opencode's title request, sent first by the small model) get a short
// text and do not consume a turn. When the script has no turns left, the mock answers with text so
// opencode ends its loop.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { isRecord } from "../_is-record.ts"
import { ToolTesterError } from "../errors.ts"
import { argumentText, type Script } from "./script.ts"

export interface CapturedRequest {
  /** `/v1/chat/completions` or `/v1/responses`. */
  path: string
  /** `title` when the request offers no tools, else `main`. */
  kind: "title" | "main"
  /** The request body as sent (parsed JSON, or the raw text when it is not JSON). */
  body: unknown
}

export interface ServedCall {
  /** Index of the script turn (0-based). */
  turn: number
  /** The tool call id sent to opencode. */
  id: string
  /** The tool name as sent. */
  name: string
  /** The argument text as sent. */
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

  const planTurn = (requestIndex: number): PlannedTurn => {
    const turn = options.script.turns[nextTurn]
    if (turn === undefined) return { text: options.finalText ?? "Done.", calls: [] }
    const turnIndex = nextTurn++
    const calls = (turn.calls ?? []).map((call) => {
      const served: ServedCall = {
        turn: turnIndex,
        id: call.id ?? `call_${nextCallNumber++}`,
        name: call.tool,
        arguments: argumentText(call),
        requestIndex,
      }
      servedCalls.push(served)
      return served
    })
    return { text: turn.text ?? "", calls }
  }

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const path = (request.url ?? "/").split("?")[0] ?? "/"
    if (request.method !== "POST" || (!path.endsWith("/chat/completions") && !path.endsWith("/responses"))) {
      unrouted.push({ method: request.method ?? "GET", path })
      response.writeHead(404, { "content-type": "application/json" })
      response.end(JSON.stringify({ error: { message: `mock model: no route ${request.method} ${path}` } }))
      return
    }
    const text = await readBody(request)
    const body = parseJson(text)
    const kind = isRecord(body) && Array.isArray(body.tools) ? "main" : "title"
    const requestIndex = requests.push({ path, kind, body }) - 1
    let planned: PlannedTurn
    if (kind === "title") {
      planned = { text: options.titleText ?? "Scripted session", calls: [] }
    } else {
      lastMainHadCalls = false
      planned = planTurn(requestIndex)
      lastMainHadCalls = planned.calls.length > 0
      options.onMainRequest?.(planned.calls)
    }
    const model = isRecord(body) && typeof body.model === "string" ? body.model : "mock-model"
    const stream = !isRecord(body) || body.stream !== false
    const events = path.endsWith("/responses")
      ? responsesEvents(planned, model, requestIndex)
      : chatEvents(planned, model, requestIndex)
    if (stream) {
      response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" })
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

/** What a model answers to one request: text, then tool calls (also the eval tests' keyword model). */
export interface PlannedTurn {
  text: string
  calls: Array<Pick<ServedCall, "id" | "name" | "arguments">>
}

/** A model's answer: the SSE frames of a streaming request, the body of a whole one. */
export interface Answer {
  /** SSE frames for a streaming request. */
  stream: string[]
  /** The whole answer for a non-streaming request. */
  whole: unknown
}

const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 }

/** OpenAI Chat Completions chunks: text, then each tool call in one delta, then finish and usage. */
export function chatEvents(planned: PlannedTurn, model: string, requestIndex: number): Answer {
  const id = `chatcmpl-mock-${requestIndex + 1}`
  const created = Math.floor(Date.now() / 1000)
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}): string =>
    sse({ id, object: "chat.completion.chunk", created, model, choices, ...extra })
  const finishReason = planned.calls.length > 0 ? "tool_calls" : "stop"
  const toolCalls = planned.calls.map((call, index) => ({
    index,
    id: call.id,
    type: "function",
    function: { name: call.name, arguments: call.arguments },
  }))
  // Every chunk has one choice whose delta names its role, and the usage rides on the last one:
  // OpenAI's own stream leaves both out where it can, but the providers that parse this wire more
  // strictly (@ai-sdk/perplexity wants the role in every delta, @ai-sdk/mistral a choice in every
  // chunk) then fail the run, and every other one reads this shape too.
  const delta = (fields: Record<string, unknown>) => ({ role: "assistant", ...fields })
  const stream = [chunk([{ index: 0, delta: delta({ content: "" }), finish_reason: null }])]
  if (planned.text !== "")
    stream.push(chunk([{ index: 0, delta: delta({ content: planned.text }), finish_reason: null }]))
  for (const toolCall of toolCalls) {
    stream.push(chunk([{ index: 0, delta: delta({ tool_calls: [toolCall] }), finish_reason: null }]))
  }
  stream.push(chunk([{ index: 0, delta: delta({}), finish_reason: finishReason }], { usage }))
  stream.push("data: [DONE]\n\n")
  const message: Record<string, unknown> = { role: "assistant", content: planned.text }
  if (toolCalls.length > 0) message.tool_calls = toolCalls.map(({ index: _index, ...call }) => call)
  const whole = {
    id,
    object: "chat.completion",
    created,
    model,
    choices: [{ index: 0, message, finish_reason: finishReason }],
    usage,
  }
  return { stream, whole }
}

// --- internal ---

/** OpenAI Responses API events: one message item for the text, one function_call item per call. */
function responsesEvents(planned: PlannedTurn, model: string, requestIndex: number): Answer {
  const responseId = `resp_mock_${requestIndex + 1}`
  const created_at = Math.floor(Date.now() / 1000)
  const base = { id: responseId, object: "response", created_at, model }
  const output: Record<string, unknown>[] = []
  const stream = [sse({ type: "response.created", response: { ...base, status: "in_progress", output: [] } })]
  if (planned.text !== "" || planned.calls.length === 0) {
    const itemId = `msg_mock_${requestIndex + 1}`
    const output_index = output.length
    const added = { type: "message", id: itemId, role: "assistant", status: "in_progress", content: [] }
    const done = {
      ...added,
      status: "completed",
      content: [{ type: "output_text", text: planned.text, annotations: [] }],
    }
    stream.push(sse({ type: "response.output_item.added", output_index, item: added }))
    stream.push(
      sse({ type: "response.output_text.delta", item_id: itemId, output_index, content_index: 0, delta: planned.text }),
    )
    stream.push(sse({ type: "response.output_item.done", output_index, item: done }))
    output.push(done)
  }
  for (const call of planned.calls) {
    const itemId = `fc_mock_${call.id}`
    const output_index = output.length
    const item = { type: "function_call", id: itemId, call_id: call.id, name: call.name, arguments: "" }
    const done = { ...item, arguments: call.arguments, status: "completed" }
    stream.push(sse({ type: "response.output_item.added", output_index, item: { ...item, status: "in_progress" } }))
    stream.push(
      sse({ type: "response.function_call_arguments.delta", item_id: itemId, output_index, delta: call.arguments }),
    )
    stream.push(sse({ type: "response.output_item.done", output_index, item: done }))
    output.push(done)
  }
  const whole = {
    ...base,
    status: "completed",
    output,
    usage: {
      input_tokens: 10,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 5,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 15,
    },
  }
  stream.push(sse({ type: "response.completed", response: whole }))
  return { stream, whole }
}

function sse(value: unknown): string {
  return `data: ${JSON.stringify(value)}\n\n`
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
