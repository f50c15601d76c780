// The model APIs e2e's mock model speaks, one file each in this folder: the route a provider posts
// to, and how one planned turn is written as that API's answer. The mock model picks the API by the
// request's path (and, for the AI Gateway, its headers), once; the turns, the calls and the
// recording are the same for all.
import type { IncomingHttpHeaders } from "node:http"
import type { Answer, PlannedTurn } from "./answer.ts"
import { anthropicMessagesAnswer, vertexAnthropicRequestOf } from "./anthropic-messages.ts"
import { bedrockConverseAnswer, bedrockRequestOf, EVENT_STREAM_CONTENT_TYPE } from "./bedrock-converse.ts"
import { chatCompletionsAnswer } from "./chat-completions.ts"
import { cohereChatAnswer, isCohereChat } from "./cohere-chat.ts"
import { gatewayLanguageModelAnswer, gatewayRequestOf } from "./gateway-language-model.ts"
import { googleArgumentText, googleGenerateContentAnswer, googleRequestOf } from "./google-generate-content.ts"
import { responsesAnswer } from "./responses.ts"

/** Writes `planned` as one API's answer; `requestIndex` numbers the ids it makes up. */
type ModelApi = (planned: PlannedTurn, model: string, requestIndex: number) => Answer

/** The API answering a route, and what the route itself says of the request. */
export interface ModelRoute {
  answer: ModelApi
  /**
   * Streamed or whole by the route (Google's method, the gateway's header); undefined: the body's
   * `stream` says.
   */
  stream?: boolean
  /**
   * Whether a body that leaves `stream` out wants a stream (default true; Cohere's whole requests
   * carry no `stream`).
   */
  streamWhenUnsaid?: boolean
  /**
   * The model the route names (Google's and Bedrock's paths, the gateway's header); undefined: the
   * body's `model` says.
   */
  model?: string
  /** A stream's content type (Bedrock's event stream); undefined: server-sent events. */
  streamContentType?: string
  /**
   * For an API whose calls carry no id (Google's): the argument text opencode gets for a script's
   * text. The mock's ids are then its own names for the calls; the provider makes up the real ones.
   */
  idlessArguments?: (text: string) => string
}

/**
 * The API of a `POST` to `path`, or undefined for a route none answers: OpenAI's chat completions
 * (`@ai-sdk/openai-compatible` and most OpenAI-compatible providers) and responses (`@ai-sdk/openai`),
 * Anthropic's messages (`@ai-sdk/anthropic`, and `@ai-sdk/google-vertex/anthropic`'s raw predict),
 * Google's generateContent (`@ai-sdk/google`), Bedrock's Converse (`@ai-sdk/amazon-bedrock`), the
 * AI Gateway's language model (`@ai-sdk/gateway`), Cohere's chat (`@ai-sdk/cohere`).
 */
export function modelRouteFor(path: string, headers: IncomingHttpHeaders = {}): ModelRoute | undefined {
  if (path.endsWith("/chat/completions")) return { answer: chatCompletionsAnswer }
  if (path.endsWith("/responses")) return { answer: responsesAnswer }
  if (path.endsWith("/messages")) return { answer: anthropicMessagesAnswer }
  if (isCohereChat(path)) return { answer: cohereChatAnswer, streamWhenUnsaid: false }
  const vertexAnthropic = vertexAnthropicRequestOf(path)
  if (vertexAnthropic !== undefined) return { answer: anthropicMessagesAnswer, ...vertexAnthropic }
  const google = googleRequestOf(path)
  if (google !== undefined)
    return { answer: googleGenerateContentAnswer, ...google, idlessArguments: googleArgumentText }
  const gateway = gatewayRequestOf(path, headers)
  if (gateway !== undefined)
    return {
      answer: gatewayLanguageModelAnswer,
      stream: gateway.stream,
      ...(gateway.model === undefined ? {} : { model: gateway.model }),
    }
  const bedrock = bedrockRequestOf(path)
  if (bedrock !== undefined)
    return { answer: bedrockConverseAnswer, ...bedrock, streamContentType: EVENT_STREAM_CONTENT_TYPE }
  return undefined
}
