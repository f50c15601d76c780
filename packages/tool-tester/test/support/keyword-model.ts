// A rule-based "keyword model" behind an OpenAI-compatible chat-completions endpoint on 127.0.0.1,
// for testing `tool-tester eval` against the real opencode without a network. For each request:
//
// - no `tools` (opencode's title request): a short title;
// - the last message is a tool result: a text that echoes it (`<tool> said: <output>`), so a test
//   can see what reached the model;
// - otherwise it picks the tool whose id and description words best overlap the last user
//   message's words, and fills its string (and number) arguments from `name=value` pairs in that
//   message, else the first required string argument from a quoted word; no overlap: a text.
//
// Special words in the user's message change that: `[rate-limit]` answers 429 with a message,
// `[unauthorized]` 401, `[no-tool]` a text with no call, `[loop]` a call every time (its argument
// changes each time, so only a call bound stops it).

import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { readBody } from "../../src/e2e/mock-model.ts"
import { chatCompletionsAnswer } from "../../src/e2e/model-apis/chat-completions.ts"

export interface KeywordModel {
  /** Put in the provider's `options.baseURL` (ends with `/v1`). */
  readonly baseURL: string
  /** Every main request (with tools) received: the model id and the last user message. */
  readonly requests: Array<{ model: string; prompt: string }>
  close(): Promise<void>
}

export const rateLimitMessage = "Rate limit reached for keyword-model: 3 requests per minute. Please try again in 20s."
export const unauthorizedMessage = "Incorrect API key provided: keyword-model rejects this key."

export async function startKeywordModel(): Promise<KeywordModel> {
  const requests: KeywordModel["requests"] = []
  let answered = 0
  let loopCount = 0
  const server: Server = createServer((request, response) => {
    readBody(request)
      .then((text) => {
        const body = JSON.parse(text) as ChatRequest
        const model = body.model ?? "keyword"
        const prompt = lastUserText(body.messages ?? [])
        const tools = body.tools ?? []
        const fail = (status: number, message: string, type: string) => {
          response.writeHead(status, { "content-type": "application/json" })
          response.end(JSON.stringify({ error: { message, type, code: type } }))
        }
        if (tools.length > 0) {
          requests.push({ model, prompt })
          if (prompt.includes("[rate-limit]")) return fail(429, rateLimitMessage, "rate_limit_exceeded")
          if (prompt.includes("[unauthorized]")) return fail(401, unauthorizedMessage, "invalid_api_key")
        }
        const planned = plan(body, prompt, tools, () => ++loopCount)
        const events = chatCompletionsAnswer(planned, model, answered++)
        if (body.stream === false) {
          response.writeHead(200, { "content-type": "application/json" })
          response.end(JSON.stringify(events.whole))
          return
        }
        response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" })
        for (const event of events.stream) response.write(event)
        response.end()
      })
      .catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(500, { "content-type": "application/json" })
        response.end(JSON.stringify({ error: { message: `keyword model: ${String(error)}` } }))
      })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** The tool a prompt names best (by id and description words), or undefined. */
function pickTool(prompt: string, tools: OfferedTool[]): OfferedTool | undefined {
  const words = new Set(wordsOf(prompt))
  let best: OfferedTool | undefined
  let bestScore = 0
  for (const tool of tools) {
    const name = tool.function.name
    const idWords = wordsOf(name.replace(/[_-]/g, " "))
    const score =
      (words.has(name.toLowerCase()) ? 3 : 0) +
      idWords.filter((word) => words.has(word)).length * 2 +
      [...new Set(wordsOf(tool.function.description ?? ""))].filter((word) => words.has(word)).length
    if (score > bestScore) {
      best = tool
      bestScore = score
    }
  }
  return best
}

/** Arguments from `name=value` pairs (`name="two words"`), else a quoted word for the first required string. */
function fillArguments(prompt: string, parameters: JsonSchema | undefined): Record<string, unknown> {
  const args: Record<string, unknown> = {}
  const properties = parameters?.properties ?? {}
  for (const [key, schema] of Object.entries(properties)) {
    const pair = new RegExp(`\\b${escapeRegExp(key)}=(?:"([^"]*)"|(\\S+))`).exec(prompt)
    if (pair === null) continue
    const value = pair[1] ?? pair[2] ?? ""
    args[key] = schema.type === "number" || schema.type === "integer" ? Number(value) : value
  }
  const firstString = (parameters?.required ?? []).find((key) => properties[key]?.type === "string")
  if (firstString !== undefined && !(firstString in args)) {
    const quoted = /"([^"]+)"|'([^']+)'/.exec(prompt)
    if (quoted !== null) args[firstString] = quoted[1] ?? quoted[2]
  }
  return args
}

// --- internal ---

interface OfferedTool {
  function: { name: string; description?: string; parameters?: JsonSchema }
}

interface JsonSchema {
  properties?: Record<string, { type?: string }>
  required?: string[]
}

interface ChatMessage {
  role: string
  content?: string | Array<{ type: string; text?: string }> | null
  tool_call_id?: string
}

interface ChatRequest {
  model?: string
  stream?: boolean
  messages?: ChatMessage[]
  tools?: OfferedTool[]
}

const stopWords = new Set(["the", "and", "for", "with", "that", "this", "from", "you", "your", "what", "use", "tool"])

function plan(body: ChatRequest, prompt: string, tools: OfferedTool[], nextLoop: () => number) {
  if (tools.length === 0) return { text: "Keyword session", calls: [] }
  const messages = body.messages ?? []
  const last = messages.at(-1)
  const looping = prompt.includes("[loop]")
  if (last?.role === "tool" && !looping) {
    const called = toolNameOf(messages, last.tool_call_id)
    return { text: `${called} said: ${textOf(last.content)}`, calls: [] }
  }
  if (prompt.includes("[no-tool]")) return { text: "I can answer that without a tool.", calls: [] }
  const tool = pickTool(prompt, tools)
  if (tool === undefined) return { text: "No tool fits that.", calls: [] }
  const args = fillArguments(prompt, tool.function.parameters)
  const number = looping ? nextLoop() : 0
  // Each loop call differs, so opencode's doom-loop check (three identical calls) does not end it first.
  if (looping) for (const key of Object.keys(args)) if (typeof args[key] === "string") args[key] += ` ${number}`
  const id = `call_kw_${Date.now().toString(36)}_${number}`
  return { text: "", calls: [{ id, name: tool.function.name, arguments: JSON.stringify(args) }] }
}

function lastUserText(messages: ChatMessage[]): string {
  const user = messages.filter((message) => message.role === "user").at(-1)
  return user === undefined ? "" : textOf(user.content)
}

function textOf(content: ChatMessage["content"]): string {
  if (typeof content === "string") return content
  return (content ?? []).map((part) => part.text ?? "").join("\n")
}

/** The tool name of the assistant call a tool message answers. */
function toolNameOf(messages: ChatMessage[], callId: string | undefined): string {
  for (const message of messages) {
    const calls = (message as { tool_calls?: Array<{ id: string; function: { name: string } }> }).tool_calls ?? []
    const call = calls.find((candidate) => candidate.id === callId)
    if (call !== undefined) return call.function.name
  }
  return "the tool"
}

function wordsOf(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((word) => word.length > 2 && !stopWords.has(word))
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
}
