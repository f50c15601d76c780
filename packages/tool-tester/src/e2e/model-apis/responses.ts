// OpenAI's responses API (`POST /v1/responses`), as e2e's mock model answers it: the wire of
// `@ai-sdk/openai`.
import { type Answer, type PlannedTurn, sse } from "./answer.ts"

/** OpenAI Responses API events: one message item for the text, one function_call item per call. */
export function responsesAnswer(planned: PlannedTurn, model: string, requestIndex: number): Answer {
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
