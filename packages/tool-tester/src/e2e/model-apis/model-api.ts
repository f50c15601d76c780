// The model APIs e2e's mock model speaks, one file each in this folder: the route a provider posts
// to, and how one planned turn is written as that API's answer. The mock model picks the API by the
// request's path, once; the turns, the calls and the recording are the same for all.
import { anthropicMessagesAnswer } from "./anthropic-messages.ts"
import type { Answer, PlannedTurn } from "./answer.ts"
import { chatCompletionsAnswer } from "./chat-completions.ts"
import { responsesAnswer } from "./responses.ts"

/** Writes `planned` as one API's answer; `requestIndex` numbers the ids it makes up. */
export type ModelApi = (planned: PlannedTurn, model: string, requestIndex: number) => Answer

/**
 * The API of a `POST` to `path`, or undefined for a route none answers: OpenAI's chat completions
 * (`@ai-sdk/openai-compatible` and most OpenAI-compatible providers) and responses (`@ai-sdk/openai`),
 * Anthropic's messages (`@ai-sdk/anthropic`).
 */
export function modelApiFor(path: string): ModelApi | undefined {
  if (path.endsWith("/chat/completions")) return chatCompletionsAnswer
  if (path.endsWith("/responses")) return responsesAnswer
  if (path.endsWith("/messages")) return anthropicMessagesAnswer
  return undefined
}
