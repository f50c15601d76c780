// Each served call as opencode stored it and the result it sent back, read from the history of a
// later request to the mock model, in that request's API: by the call's id where the API carries
// one (chat completions, responses, Anthropic's messages, Bedrock's Converse, the AI Gateway's
// prompt), by its place in its turn where it does not (Google's generateContent).
import { isRecord } from "../_is-record.ts"
import { bedrockToolUseId } from "../pipeline/bedrock-messages.ts"
import type { CapturedRequest, ServedCall } from "./mock-model.ts"
import { bedrockRequestOf } from "./model-apis/bedrock-converse.ts"

export interface E2EToolCall {
  name: string
  /**
   * The argument text, exactly as on the wire (Anthropic's messages API and Bedrock's Converse carry a
   * call's `input` in opencode's history as a JSON value, Google's a call's `args` both ways as an object: its JSON
   * text).
   */
  arguments: string
}

export type CallHistory = { call: E2EToolCall | null; result: string | null }

/**
 * The call and its result as they appear in the first later request that holds them; for an
 * id-less API (`idless`), in the request that follows its answer, by its place among its turn's
 * calls (`position`).
 */
export function callHistory(
  served: ServedCall,
  requests: readonly CapturedRequest[],
  idless?: { position: number; of: number },
): CallHistory | undefined {
  if (idless !== undefined) return googleHistory(served, requests, idless)
  for (const request of requests.slice(served.requestIndex + 1)) {
    if (request.kind !== "main") continue
    const body = asObject(request.body)
    const items = [body?.messages, body?.input, body?.prompt].find(Array.isArray) ?? []
    // Converse carries a Mistral model's ids cut short (the model is in the request's path).
    const bedrock = bedrockRequestOf(request.path)
    const bedrockId = bedrock === undefined ? undefined : bedrockToolUseId(served.id, bedrock.model)
    let call: E2EToolCall | null = null
    let result: string | null = null
    for (const item of items) {
      const record = asObject(item)
      if (record === undefined) continue
      const found = { ...chatHistory(record, served.id), ...responsesHistory(record, served.id) }
      for (const block of Array.isArray(record.content) ? record.content : []) {
        const entry = asObject(block)
        if (entry !== undefined)
          Object.assign(found, anthropicHistory(entry, served.id), gatewayHistory(entry, served.id))
        if (entry !== undefined && bedrockId !== undefined) Object.assign(found, bedrockHistory(entry, bedrockId))
      }
      call = found.call ?? call
      result = found.result ?? result
    }
    if (call !== null || result !== null) return { call, result }
  }
  return undefined
}

// --- internal ---

type HistoryFound = { call?: E2EToolCall; result?: string }

/** Chat completions: the assistant's `tool_calls`, then a `tool` message. */
function chatHistory(record: Record<string, unknown>, id: string): HistoryFound {
  const found: HistoryFound = {}
  for (const toolCall of Array.isArray(record.tool_calls) ? record.tool_calls : []) {
    const entry = asObject(toolCall)
    const fn = asObject(entry?.function)
    if (entry?.id === id && fn !== undefined) found.call = { name: String(fn.name), arguments: String(fn.arguments) }
  }
  if (record.role === "tool" && record.tool_call_id === id) found.result = contentText(record.content)
  return found
}

/** The responses API: `function_call` and `function_call_output` items. */
function responsesHistory(record: Record<string, unknown>, id: string): HistoryFound {
  if (record.type === "function_call" && record.call_id === id)
    return { call: { name: String(record.name), arguments: String(record.arguments) } }
  if (record.type === "function_call_output" && record.call_id === id) return { result: contentText(record.output) }
  return {}
}

/**
 * Anthropic's messages API: a `tool_use` block of the assistant's content (its `input` is a JSON
 * value, given as its JSON text), then a `tool_result` block of a user message's content.
 */
function anthropicHistory(block: Record<string, unknown>, id: string): HistoryFound {
  if (block.type === "tool_use" && block.id === id)
    return { call: { name: String(block.name), arguments: JSON.stringify(block.input) } }
  if (block.type === "tool_result" && block.tool_use_id === id) return { result: contentText(block.content) }
  return {}
}

/**
 * The AI Gateway's language model (the AI SDK's own prompt): a `tool-call` part of the assistant's
 * content (its `input` a JSON value, given as its JSON text), then a `tool-result` part of a tool
 * message, whose output is a text (`text`, `error-text`), a JSON value or a list of parts (`content`).
 */
function gatewayHistory(part: Record<string, unknown>, id: string): HistoryFound {
  if (part.toolCallId !== id) return {}
  if (part.type === "tool-call") return { call: { name: String(part.toolName), arguments: JSON.stringify(part.input) } }
  if (part.type !== "tool-result") return {}
  const output = asObject(part.output)
  if (output?.type === "text" || output?.type === "error-text") return { result: contentText(output.value) }
  if (output?.type === "content") return { result: contentText(output.value) }
  return { result: JSON.stringify(output?.value ?? part.output) }
}

/**
 * Bedrock's Converse API: a `toolUse` block of the assistant's content (its `input` a JSON value,
 * given as its JSON text), then a `toolResult` block of a user message's content.
 */
function bedrockHistory(block: Record<string, unknown>, id: string): HistoryFound {
  const toolUse = asObject(block.toolUse)
  if (toolUse !== undefined && toolUse.toolUseId === id)
    return { call: { name: String(toolUse.name), arguments: JSON.stringify(toolUse.input) } }
  const toolResult = asObject(block.toolResult)
  if (toolResult !== undefined && toolResult.toolUseId === id) return { result: contentText(toolResult.content) }
  return {}
}

/**
 * Google's generateContent, whose calls carry no id: in the request right after the call's answer,
 * the last `model` content is that answer; its `functionCall` parts are the turn's calls in order
 * (`args`, an object, given as its JSON text), and the `user` content after it holds their results.
 * A result is a `functionResponse` part (`response.content`, with the files of a gemini-3 model in
 * its own `parts`) and the parts after it (older models' files); one with no text has no
 * `functionResponse`, only its files. When the parts do not split into one result per call (such a
 * result beside others), each result is null: which is which cannot be told.
 */
function googleHistory(
  served: ServedCall,
  requests: readonly CapturedRequest[],
  { position, of }: { position: number; of: number },
): CallHistory | undefined {
  const next = requests.slice(served.requestIndex + 1).find((request) => request.kind === "main")
  const body = asObject(next?.body)
  const contents = (Array.isArray(body?.contents) ? body.contents : []).map((content) => asObject(content) ?? {})
  const answer = contents.findLastIndex((content) => content.role === "model")
  if (answer === -1) return undefined
  const calls = partsOf(contents[answer]).flatMap((part) => {
    const functionCall = asObject(part.functionCall)
    return functionCall === undefined ? [] : [functionCall]
  })
  const functionCall = calls[position]
  const call = functionCall === undefined ? null : googleCall(functionCall)
  const after = contents[answer + 1]
  const results = after?.role === "user" ? resultSegments(partsOf(after)) : []
  const segment = results.length === of ? results[position] : undefined
  return { call, result: segment === undefined ? null : segment.map(googlePartText).join("") }
}

function googleCall(functionCall: Record<string, unknown>): E2EToolCall {
  return { name: String(functionCall.name), arguments: JSON.stringify(functionCall.args ?? {}) }
}

/** A user content's parts split into results: each `functionResponse` starts one. */
function resultSegments(parts: Array<Record<string, unknown>>): Array<Array<Record<string, unknown>>> {
  const segments: Array<Array<Record<string, unknown>>> = []
  for (const part of parts) {
    const current = segments.at(-1)
    if (part.functionResponse !== undefined || current === undefined) segments.push([part])
    else current.push(part)
  }
  return segments
}

/** A `functionResponse`'s content and its files as JSON; a text part's text; other parts as JSON. */
function googlePartText(part: Record<string, unknown>): string {
  const response = asObject(part.functionResponse)
  if (response === undefined) return typeof part.text === "string" ? part.text : JSON.stringify(part)
  const content = asObject(response.response)?.content
  const files = Array.isArray(response.parts) ? response.parts.map((file) => JSON.stringify(file)) : []
  return [typeof content === "string" ? content : JSON.stringify(content), ...files].join("")
}

function partsOf(content: Record<string, unknown> | undefined): Array<Record<string, unknown>> {
  return (Array.isArray(content?.parts) ? content.parts : []).map((part) => asObject(part) ?? {})
}

function contentText(content: unknown): string {
  if (typeof content === "string") return content
  if (Array.isArray(content)) {
    return content
      .map((part) => {
        const record = asObject(part)
        return typeof record?.text === "string" ? record.text : JSON.stringify(part)
      })
      .join("")
  }
  return JSON.stringify(content)
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return isRecord(value) ? value : undefined
}
