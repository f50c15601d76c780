// Anthropic's messages API (`POST /v1/messages`, and Vertex AI's `:streamRawPredict` for Claude
// there), as e2e's mock model answers it: the wire of `@ai-sdk/anthropic`. A stream is
// `message_start`, then one content block per part (a `text` block with its `text_delta`, a
// `tool_use` block per call with the argument text as one `input_json_delta`), each closed by
// `content_block_stop`, then `message_delta` with the stop reason (`tool_use` when the turn calls
// tools, else `end_turn`) and `message_stop`. Each event has the `event:` line Anthropic sends
// beside its data.
import { type Answer, type PlannedTurn, sse, wholeInput } from "./answer.ts"

/**
 * Claude on Vertex AI (`@ai-sdk/google-vertex/anthropic`): the same messages in the body, posted to
 * `<baseURL>/<model>:streamRawPredict` (streamed) or `:rawPredict` (whole). The model and the
 * streaming of such a path; undefined for another.
 */
export function vertexAnthropicRequestOf(path: string): { model: string; stream: boolean } | undefined {
  const match = /\/([^/:]+):(streamRawPredict|rawPredict)$/.exec(path)
  if (match === null) return undefined
  return { model: decodeURIComponent(match[1]!), stream: match[2] === "streamRawPredict" }
}

export function anthropicMessagesAnswer(planned: PlannedTurn, model: string, requestIndex: number): Answer {
  const id = `msg_mock_${requestIndex + 1}`
  const stopReason = planned.calls.length > 0 ? "tool_use" : "end_turn"
  const stream: string[] = []
  const event = (value: { type: string } & Record<string, unknown>) => stream.push(sse(value, value.type))
  const message = { id, type: "message", role: "assistant", model, stop_sequence: null }
  event({
    type: "message_start",
    message: { ...message, content: [], stop_reason: null, usage: { input_tokens: 10, output_tokens: 0 } },
  })
  const content: unknown[] = []
  if (planned.text !== "" || planned.calls.length === 0) {
    const index = content.length
    event({ type: "content_block_start", index, content_block: { type: "text", text: "" } })
    event({ type: "content_block_delta", index, delta: { type: "text_delta", text: planned.text } })
    event({ type: "content_block_stop", index })
    content.push({ type: "text", text: planned.text })
  }
  for (const call of planned.calls) {
    const index = content.length
    const block = { type: "tool_use", id: call.id, name: call.name }
    event({ type: "content_block_start", index, content_block: { ...block, input: {} } })
    // An empty delta is what Anthropic sends first; @ai-sdk/anthropic skips it and takes no
    // argument text as `{}`.
    event({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: call.arguments } })
    event({ type: "content_block_stop", index })
    content.push({ ...block, input: wholeInput(call.arguments) })
  }
  event({ type: "message_delta", delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 5 } })
  event({ type: "message_stop" })
  const whole = {
    ...message,
    content,
    stop_reason: stopReason,
    usage: { input_tokens: 10, output_tokens: 5 },
  }
  return { stream, whole }
}
