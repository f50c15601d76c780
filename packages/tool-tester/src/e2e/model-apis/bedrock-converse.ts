// Amazon Bedrock's Converse API, as e2e's mock model answers it: the wire of `@ai-sdk/amazon-bedrock`,
// which posts to `<baseURL>/model/<model>/converse-stream` (streamed) or `/converse` (whole). A stream
// is AWS's binary event stream (`application/vnd.amazon.eventstream`), not server-sent events: each
// event one frame whose `:event-type` header names it and whose payload is its JSON. The events:
// `messageStart`, the text as a `contentBlockDelta` of block 0, then per call a `contentBlockStart`
// with its `toolUse` id and name, its argument text as one `contentBlockDelta`, and a
// `contentBlockStop`; then `messageStop` with the stop reason (`tool_use` when the turn calls tools,
// else `end_turn`) and the usage as `metadata`.
//
// A frame: its total length and its headers' length (4 bytes each, big-endian), the CRC-32 of
// those 8 bytes, the headers (each a 1-byte name length, the name, type 7 for a string, a 2-byte
// value length, the value), the payload, and the CRC-32 of all before it.
import { crc32 } from "node:zlib"
import { type Answer, type PlannedTurn, wholeInput } from "./answer.ts"

export const EVENT_STREAM_CONTENT_TYPE = "application/vnd.amazon.eventstream"

export function bedrockConverseAnswer(planned: PlannedTurn, _model: string, _requestIndex: number): Answer {
  const stopReason = planned.calls.length > 0 ? "tool_use" : "end_turn"
  const usage = { inputTokens: 10, outputTokens: 5, totalTokens: 15 }
  const stream: Uint8Array[] = [frame("messageStart", { role: "assistant" })]
  const content: unknown[] = []
  if (planned.text !== "" || planned.calls.length === 0) {
    stream.push(frame("contentBlockDelta", { contentBlockIndex: 0, delta: { text: planned.text } }))
    stream.push(frame("contentBlockStop", { contentBlockIndex: 0 }))
    content.push({ text: planned.text })
  }
  for (const call of planned.calls) {
    const contentBlockIndex = content.length
    const toolUse = { toolUseId: call.id, name: call.name }
    stream.push(frame("contentBlockStart", { contentBlockIndex, start: { toolUse } }))
    stream.push(frame("contentBlockDelta", { contentBlockIndex, delta: { toolUse: { input: call.arguments } } }))
    stream.push(frame("contentBlockStop", { contentBlockIndex }))
    content.push({ toolUse: { ...toolUse, input: wholeInput(call.arguments) } })
  }
  stream.push(frame("messageStop", { stopReason }))
  stream.push(frame("metadata", { usage, metrics: { latencyMs: 1 } }))
  const whole = { output: { message: { role: "assistant", content } }, stopReason, usage, metrics: { latencyMs: 1 } }
  return { stream, whole }
}

/** The model a request to `.../model/<model>/converse(-stream)` names, and whether it streams. */
export function bedrockRequestOf(path: string): { model: string; stream: boolean } | undefined {
  const match = /\/model\/([^/]+)\/(converse-stream|converse)$/.exec(path)
  if (match === null) return undefined
  return { model: decodeURIComponent(match[1]!), stream: match[2] === "converse-stream" }
}

// --- internal ---

/** One event of AWS's event stream, its payload the JSON text of `payload`. */
function frame(eventType: string, payload: unknown): Uint8Array {
  const headers = Buffer.concat([
    header(":event-type", eventType),
    header(":content-type", "application/json"),
    header(":message-type", "event"),
  ])
  const body = Buffer.from(JSON.stringify(payload), "utf8")
  const total = 12 + headers.length + body.length + 4
  const bytes = Buffer.alloc(total)
  bytes.writeUInt32BE(total, 0)
  bytes.writeUInt32BE(headers.length, 4)
  bytes.writeUInt32BE(crc32(bytes.subarray(0, 8)), 8)
  headers.copy(bytes, 12)
  body.copy(bytes, 12 + headers.length)
  bytes.writeUInt32BE(crc32(bytes.subarray(0, total - 4)), total - 4)
  return bytes
}

/** A string header: name length, name, type 7 (string), value length, value. */
function header(name: string, value: string): Buffer {
  const nameBytes = Buffer.from(name, "utf8")
  const valueBytes = Buffer.from(value, "utf8")
  const bytes = Buffer.alloc(1 + nameBytes.length + 1 + 2 + valueBytes.length)
  bytes.writeUInt8(nameBytes.length, 0)
  nameBytes.copy(bytes, 1)
  bytes.writeUInt8(7, 1 + nameBytes.length)
  bytes.writeUInt16BE(valueBytes.length, 2 + nameBytes.length)
  valueBytes.copy(bytes, 4 + nameBytes.length)
  return bytes
}
