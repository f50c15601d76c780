// The AI Gateway's language-model API (`POST /v1/language-model`), as e2e's mock model answers it:
// the wire of `@ai-sdk/gateway`, which sends the AI SDK's own call options as the body (the
// prompt as `prompt`, the tools as `tools`) and names the model and whether to stream in headers
// (`ai-language-model-id`, `ai-language-model-streaming`). A stream is the AI SDK's stream parts
// (specification 3), one server-sent event each: `stream-start`, `response-metadata`, a text part
// (`text-start`, `text-delta`, `text-end`) when the turn has text or no call, a `tool-call` per call
// with its argument text as `input`, then `finish` with the reason (`tool-calls` when the turn
// calls tools, else `stop`) and the usage. A whole answer is the same content in one body.
import type { IncomingHttpHeaders } from "node:http"
import { type Answer, type PlannedTurn, sse } from "./answer.ts"

/** The gateway's route: the request's model and streaming flag, from its headers; undefined for another path. */
export function gatewayRequestOf(
  path: string,
  headers: IncomingHttpHeaders,
): { model: string | undefined; stream: boolean } | undefined {
  if (!path.endsWith("/language-model")) return undefined
  const model = headers["ai-language-model-id"]
  return {
    model: typeof model === "string" ? model : undefined,
    stream: headers["ai-language-model-streaming"] !== "false",
  }
}

export function gatewayLanguageModelAnswer(planned: PlannedTurn, model: string, requestIndex: number): Answer {
  const id = `gen_mock_${requestIndex + 1}`
  const content: Array<Record<string, unknown>> = []
  if (planned.text !== "" || planned.calls.length === 0) content.push({ type: "text", text: planned.text })
  for (const call of planned.calls)
    content.push({ type: "tool-call", toolCallId: call.id, toolName: call.name, input: call.arguments })
  const finishReason = planned.calls.length > 0 ? "tool-calls" : "stop"
  const finish = {
    finishReason: { unified: finishReason, raw: finishReason },
    usage: {
      inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 5, text: 5, reasoning: 0 },
    },
  }
  const stream = [
    sse({ type: "stream-start", warnings: [] }),
    sse({ type: "response-metadata", id, modelId: model, timestamp: new Date(0).toISOString() }),
  ]
  for (const part of content) {
    if (part.type === "text") {
      const textId = `${id}_text`
      stream.push(sse({ type: "text-start", id: textId }))
      stream.push(sse({ type: "text-delta", id: textId, delta: part.text }))
      stream.push(sse({ type: "text-end", id: textId }))
    } else stream.push(sse(part))
  }
  stream.push(sse({ type: "finish", ...finish }))
  return { stream, whole: { content, ...finish, warnings: [], response: { id, modelId: model } } }
}
