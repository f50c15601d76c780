// What the model's next request carried of one call's result, read from the requests e2e's mock
// model recorded: the form `RunResult.modelMessages` and `modelDocuments` predict
// (docs/opencode-contract.md#attachments), for `tool-tester verify` and the attachments tests. The
// call is taken as the one call of its turn, as modelMessages writes it: the messages from its
// tool item (a tool message, a `function_call_output` item, the user message holding its
// `tool_result` or Converse `toolResult` block, the gateway's tool message with its `tool-result`
// part) up to the next item that is no user message; for Google's contents, which name no call,
// the user contents after the last model content.
import { isRecord } from "../_is-record.ts"
import type { CapturedRequest } from "./mock-model.ts"

export interface CarriedResult {
  messages: unknown[]
  /** The entries the request's `documents` (Cohere's) gained with this result; empty for other APIs. */
  documents: unknown[]
}

/** What the request after `call`'s turn carried of its result, or null when none followed. */
export function carriedResult(
  requests: readonly CapturedRequest[],
  call: { turn: number; id: string },
): CarriedResult | null {
  const mains = requests.filter((request) => request.kind === "main").map((request) => request.body)
  const next = mains[call.turn + 1]
  if (!isRecord(next)) return null
  const messages = carriedMessages(next, call.id)
  // The call's own request holds the documents of the results before it.
  const before = documentsOf(mains[call.turn]).length
  return {
    messages: numberedFrom(messages, unnamedDocumentsBefore(next, messages)),
    documents: documentsOf(next).slice(before),
  }
}

// --- internal ---

function carriedMessages(body: Record<string, unknown>, id: string): unknown[] {
  if (Array.isArray(body.contents)) {
    const contents = body.contents.map((content) => (isRecord(content) ? content : {}))
    const start = contents.findLastIndex((content) => content.role === "model") + 1
    const end = contents.findIndex((content, index) => index >= start && content.role !== "user")
    return start === 0 ? [] : contents.slice(start, end === -1 ? undefined : end)
  }
  const items = [body.messages, body.input, body.prompt].find(Array.isArray) ?? []
  const start = items.findIndex((item) => isRecord(item) && carriesCall(item, id))
  if (start === -1) return []
  const end = items.findIndex((item, index) => index > start && !(isRecord(item) && item.role === "user"))
  return items.slice(start, end === -1 ? undefined : end)
}

function carriesCall(item: Record<string, unknown>, id: string): boolean {
  if (item.tool_call_id === id) return true
  if (item.type === "function_call_output" && item.call_id === id) return true
  const blocks = Array.isArray(item.content) ? item.content.filter(isRecord) : []
  return blocks.some(
    (block) =>
      (block.type === "tool_result" && block.tool_use_id === id) ||
      (block.type === "tool-result" && block.toolCallId === id) ||
      (isRecord(block.toolResult) && block.toolResult.toolUseId === id),
  )
}

function documentsOf(body: unknown): unknown[] {
  return isRecord(body) && Array.isArray(body.documents) ? body.documents : []
}

/**
 * Bedrock numbers the documents without a name over the whole request, and modelMessages as if the
 * call were the request's only one: how many `document-N` names the messages before the carried
 * ones hold.
 */
function unnamedDocumentsBefore(body: Record<string, unknown>, carried: unknown[]): number {
  const items = Array.isArray(body.messages) ? body.messages : []
  const before = items.slice(0, carried.length === 0 ? 0 : items.indexOf(carried[0]))
  return JSON.stringify(before).match(/"name":"document-\d+"/g)?.length ?? 0
}

function numberedFrom(messages: unknown[], offset: number): unknown[] {
  if (offset === 0) return messages
  const text = JSON.stringify(messages).replace(
    /"name":"document-(\d+)"/g,
    (_, number: string) => `"name":"document-${Number(number) - offset}"`,
  )
  return JSON.parse(text) as unknown[]
}
