// Google's Generative Language API, as e2e's mock model answers it: the wire of `@ai-sdk/google`
// (3.0.73 in opencode 1.18.34), which posts to `<baseURL>/models/<model>:streamGenerateContent?alt=sse`
// (streamed) or `:generateContent` (whole). A stream is `data:` chunks of `{candidates: [{content:
// {role: "model", parts}}]}`: one chunk with the text part, one with every call as a `functionCall`
// part, the last with `finishReason: "STOP"` (Google's reason for calls too) and the usage.
//
// Google's calls carry no id (`@ai-sdk/google` makes one up for each, so a script's `id` cannot be
// sent: googleScriptProblem), and `args` is a JSON object, not text. A script's argument text is
// sent as the object it parses to, and no text as `{}` (what opencode makes of none anyway). Text
// that is not a JSON object (`{not json`) goes as a string `args`: Google never sends one, but
// `@ai-sdk/google` takes a string in a stream as the argument text itself, so opencode gets the text
// as from any other API and reroutes it to `invalid` (observed). A whole answer would give it the
// JSON text of that string instead; opencode only streams.
import { isRecord } from "../../_is-record.ts"
import type { Script } from "../script.ts"
import { type Answer, type PlannedTurn, sse } from "./answer.ts"

export function googleGenerateContentAnswer(planned: PlannedTurn, model: string, _requestIndex: number): Answer {
  const textParts = planned.text !== "" || planned.calls.length === 0 ? [{ text: planned.text }] : []
  const callParts = planned.calls.map((call) => ({ functionCall: functionCall(call.name, call.arguments) }))
  const usageMetadata = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 }
  const candidate = (parts: unknown[], last: boolean) => ({
    content: { role: "model", parts },
    ...(last ? { finishReason: "STOP" } : {}),
    index: 0,
  })
  const chunks = [textParts, callParts].filter((parts) => parts.length > 0)
  const stream = chunks.map((parts, index) => {
    const last = index === chunks.length - 1
    return sse({ candidates: [candidate(parts, last)], ...(last ? { usageMetadata } : {}), modelVersion: model })
  })
  const whole = { candidates: [candidate([...textParts, ...callParts], true)], usageMetadata, modelVersion: model }
  return { stream, whole }
}

/**
 * The argument text opencode gets for a script's argument text: the JSON text of the object it is
 * sent as (`@ai-sdk/google` writes `args` back as JSON), `{}` for none, other text as it is.
 */
export function googleArgumentText(text: string): string {
  if (text === "") return "{}"
  const args = objectArgs(text)
  return args === undefined ? text : JSON.stringify(args)
}

/** The model a request to `.../models/<model>:<method>` names, and whether it streams. */
export function googleRequestOf(path: string): { model: string; stream: boolean } | undefined {
  const match = /\/models\/([^/:]+):(streamGenerateContent|generateContent)$/.exec(path)
  if (match === undefined || match === null) return undefined
  return { model: match[1]!, stream: match[2] === "streamGenerateContent" }
}

/**
 * What of `script` Google's API cannot send, as a sentence naming where it is and what to do, or
 * undefined: a call's `id` (Google's calls carry none; `@ai-sdk/google` makes one up).
 */
export function googleScriptProblem(script: Script): string | undefined {
  for (const [turnIndex, turn] of script.turns.entries()) {
    const callIndex = (turn.calls ?? []).findIndex((call) => call.id !== undefined)
    if (callIndex !== -1)
      return `turns[${turnIndex}].calls[${callIndex}] gives an \`id\`, which Google's API cannot send: its function calls carry no id, and @ai-sdk/google makes one up (e2e reports it as the call's id). Leave the call's \`id\` out`
  }
  return undefined
}

// --- internal ---

/** A call's `functionCall`: `args` the object its argument text parses to, else the text. */
function functionCall(name: string, text: string): Record<string, unknown> {
  return { name, args: objectArgs(text) ?? (text === "" ? {} : text) }
}

function objectArgs(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text)
    return isRecord(value) ? value : undefined
  } catch {
    return undefined
  }
}
