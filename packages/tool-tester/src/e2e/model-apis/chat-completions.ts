// OpenAI's chat-completions API (`POST /v1/chat/completions`), as e2e's mock model answers it: the
// wire of `@ai-sdk/openai-compatible` and of most OpenAI-compatible providers.
import { type Answer, type PlannedTurn, sse } from "./answer.ts"

const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 }

/** OpenAI Chat Completions chunks: text, then each tool call in one delta, then finish and usage. */
export function chatCompletionsAnswer(planned: PlannedTurn, model: string, requestIndex: number): Answer {
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
