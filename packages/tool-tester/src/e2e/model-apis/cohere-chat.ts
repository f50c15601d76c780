// Cohere's chat API (v2, `POST /v2/chat`; `/v1/chat` under e2e's base URL), as e2e's mock model
// answers it: the wire of `@ai-sdk/cohere`. A stream is Cohere's named server-sent events:
// `message-start`, the text as one content block (`content-start`, `content-delta`,
// `content-end`) when the turn has text or no call, each call in turn (`tool-call-start` with its
// name and id, `tool-call-delta` with its argument text, `tool-call-end`: the package reads one call
// at a time), then `message-end` with the reason (`TOOL_CALL` when the turn calls tools, else
// `COMPLETE`) and the usage. A whole answer is the same message in one body. Cohere puts the
// model's words before a call in `tool_plan`, which `@ai-sdk/cohere` drops: the mock sends a
// script's text as content, the one place opencode reads it from. `@ai-sdk/cohere` parses each
// streamed call's argument text and fails the run on text that is no JSON, before opencode sees
// the call: such a script is refused (cohereScriptProblem).
import type { Script } from "../script.ts"
import { type Answer, type PlannedTurn, sse } from "./answer.ts"

const tokens = { input_tokens: 10, output_tokens: 5 }
const usage = { billed_units: tokens, tokens }

/** Cohere's route: the path its package posts every chat to, under any base URL. */
export function isCohereChat(path: string): boolean {
  return path.endsWith("/chat")
}

export function cohereChatAnswer(planned: PlannedTurn, _model: string, requestIndex: number): Answer {
  const id = `cohere-mock-${requestIndex + 1}`
  const finishReason = planned.calls.length > 0 ? "TOOL_CALL" : "COMPLETE"
  const withText = planned.text !== "" || planned.calls.length === 0
  const event = (type: string, fields: Record<string, unknown> = {}) => sse({ type, ...fields }, type)
  const stream = [event("message-start", { id, delta: { message: { role: "assistant" } } })]
  if (withText) {
    stream.push(event("content-start", { index: 0, delta: { message: { content: { type: "text", text: "" } } } }))
    stream.push(event("content-delta", { index: 0, delta: { message: { content: { text: planned.text } } } }))
    stream.push(event("content-end", { index: 0 }))
  }
  planned.calls.forEach((call, index) => {
    const start = { id: call.id, type: "function", function: { name: call.name, arguments: "" } }
    stream.push(event("tool-call-start", { index, delta: { message: { tool_calls: start } } }))
    const delta = { function: { arguments: call.arguments } }
    stream.push(event("tool-call-delta", { index, delta: { message: { tool_calls: delta } } }))
    stream.push(event("tool-call-end", { index }))
  })
  stream.push(event("message-end", { delta: { finish_reason: finishReason, usage } }))
  const toolCalls = planned.calls.map((call) => ({
    id: call.id,
    type: "function",
    function: { name: call.name, arguments: call.arguments },
  }))
  const message = {
    role: "assistant",
    content: withText ? [{ type: "text", text: planned.text }] : [],
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
  }
  return { stream, whole: { id, generation_id: id, message, finish_reason: finishReason, usage } }
}

/**
 * What of `script` `@ai-sdk/cohere` cannot pass on, as a sentence naming where it is and what to
 * do, or undefined: a call's `rawArgs` that is no JSON text (the package parses the arguments as
 * they stream; the run then fails with "JSON Parse error" before opencode gets the call). Empty
 * text is sent as `{}`.
 */
export function cohereScriptProblem(script: Script): string | undefined {
  for (const [turnIndex, turn] of script.turns.entries()) {
    const callIndex = (turn.calls ?? []).findIndex((call) => call.rawArgs !== undefined && !isJsonText(call.rawArgs))
    if (callIndex !== -1)
      return `turns[${turnIndex}].calls[${callIndex}] has \`rawArgs\` that are no JSON, which @ai-sdk/cohere cannot pass on: it parses each call's arguments as they stream and fails opencode's run ("JSON Parse error") before opencode gets the call, so opencode's rerouting to \`invalid\` never happens with Cohere. Give JSON text`
  }
  return undefined
}

function isJsonText(text: string): boolean {
  if (text.trim() === "") return true
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}
