// What the model's next request carries for a call whose result has attachments, as opencode
// 1.18.34 sends it (docs/opencode-contract.md#attachments): the tool message, and after it the
// user message opencode adds for the images and PDFs the provider takes only from a user. Written
// in the provider's API: chat completions for `@ai-sdk/openai-compatible` and the packages that
// speak it (chat-messages.ts), the responses API for `@ai-sdk/openai` and `@ai-sdk/azure`, the
// messages API for `@ai-sdk/anthropic` and Claude on Vertex AI (`@ai-sdk/google-vertex/anthropic`),
// generateContent for `@ai-sdk/google` and `@ai-sdk/google-vertex` (google-contents.ts), Converse
// for `@ai-sdk/amazon-bedrock` (bedrock-messages.ts), the AI SDK's own prompt for `@ai-sdk/gateway`
// (gateway-prompt.ts), Cohere's chat for `@ai-sdk/cohere` (cohere-messages.ts, with the request's
// `documents` the result adds): each observed on the binary with e2e's mock model.
// Other providers: not modelled (null).
import { bedrockMessages } from "./bedrock-messages.ts"
import type { ModelSelection } from "./builtins.ts"
import { chatDialectOf, chatMessages } from "./chat-messages.ts"
import { cohereMessages } from "./cohere-messages.ts"
import { gatewayPrompt } from "./gateway-prompt.ts"
import { googleContents } from "./google-contents.ts"
import { isMedia, modalityOf, takesMediaInToolResult } from "./media-in-tool-results.ts"
import type { ModelModality } from "./model-modalities.ts"
import type { FilePart } from "./part-attachments.ts"
import { type ContentPart, MOVED_MEDIA_TEXT, movedParts, type ToolResult, type UserFile } from "./result-content.ts"

export { MODEL_MODALITIES, type ModelModality } from "./model-modalities.ts"

export type ModelMessagesInput = {
  callID: string
  /** The tool that ran (Google's API names the tool where the others give the call's id). */
  toolName: string
  /** The part's output: truncated, after the hooks and the image step. */
  output: string
  /** The part's attachments (part-attachments.ts). */
  attachments: readonly FilePart[]
  model: ModelSelection
  /** What the model takes besides text (none by default, as e2e's mock model). */
  modelInput: readonly ModelModality[]
  /** Whether opencode marks the request's last two messages for prompt caching (prompt-caching.ts). */
  cacheMarks: boolean
}

/** The request's messages for this result, or null when the provider's API is not modelled. */
export function modelMessages(input: ModelMessagesInput): unknown[] | null {
  const written = requestFor(input)
  return written !== null && "messages" in written ? written.messages : null
}

/**
 * The entries of the request's `documents` this result adds, for an API that sends files there
 * (Cohere's chat: the moved images and PDFs the model reads); undefined for the others and when
 * `modelMessages` is null.
 */
export function modelDocuments(input: ModelMessagesInput): unknown[] | undefined {
  const written = requestFor(input)
  return written !== null && "documents" in written ? written.documents : undefined
}

/**
 * The error opencode's run ends with when the provider's package refuses to write the next request
 * for this result, so the model never gets it; undefined when none is known. Observed on 1.18.34,
 * each an `AI_UnsupportedFunctionalityError` whose message ends the run: `@ai-sdk/xai`,
 * `@ai-sdk/groq`, `@ai-sdk/github-copilot`, `@ai-sdk/alibaba` and `venice-ai-sdk-provider` with a
 * PDF the model takes as input (moved to a user message), `venice-ai-sdk-provider` with any file
 * but audio in the result,
 * `@ai-sdk/amazon-bedrock` with a file of a type Converse has no document format for
 * (`audio/wav`, `application/json`).
 */
export function modelRequestError(input: ModelMessagesInput): string | undefined {
  const written = requestFor(input)
  return written !== null && "error" in written ? written.error : undefined
}

// --- internal ---

/** The request's messages for this result in its provider's API, the error it fails with, or null. */
function requestFor(
  input: ModelMessagesInput,
): { messages: unknown[]; documents?: unknown[] } | { error: string } | null {
  const { result, userFiles } = carried(input)
  const { npm } = input.model
  const dialect = chatDialectOf(input.model)
  if (dialect !== undefined) return chatMessages(dialect, input, result, userFiles, input.cacheMarks)
  if (npm === "@ai-sdk/openai" || npm === "@ai-sdk/azure")
    return messagesOf(responsesItems(input.callID, result, userFiles))
  if (npm === "@ai-sdk/anthropic" || npm === "@ai-sdk/google-vertex/anthropic")
    return messagesOf(anthropicMessages(input.callID, result, userFiles, input.cacheMarks))
  if (npm === "@ai-sdk/google" || npm === "@ai-sdk/google-vertex")
    return messagesOf(
      googleContents(input.toolName, input.model.modelID, result, userFiles, npm === "@ai-sdk/google-vertex"),
    )
  if (npm === "@ai-sdk/gateway") return messagesOf(gatewayPrompt(input, result, userFiles))
  if (npm === "@ai-sdk/cohere") return cohereMessages(input.callID, result, userFiles)
  if (npm === "@ai-sdk/amazon-bedrock")
    return bedrockMessages(input.callID, input.model, result, userFiles, input.cacheMarks)
  return null
}

function messagesOf(messages: unknown[] | null): { messages: unknown[] } | null {
  return messages === null ? null : { messages }
}

/** The result as the tool message carries it, and the media moved to a user message after it. */
function carried(input: ModelMessagesInput): { result: ToolResult; userFiles: UserFile[] } {
  const moved = input.attachments.filter(
    (attachment) => isMedia(attachment.mime) && !takesMediaInToolResult(input.model, attachment.mime),
  )
  const kept = input.attachments.filter((attachment) => !moved.includes(attachment))
  return {
    result: kept.length === 0 ? input.output : contentOf(input.output, kept),
    userFiles: moved.map((file) => userFile(file, input.modelInput)),
  }
}

/** opencode's prompt-caching mark, as both APIs write it. */
const CACHE_MARK = { cache_control: { type: "ephemeral" } }

/** Only `data:` URLs are sent with the result, as the text after their first comma; others are left out. */
function contentOf(output: string, attachments: readonly FilePart[]): ContentPart[] {
  const parts: ContentPart[] = output === "" ? [] : [{ type: "text", text: output }]
  for (const file of attachments) {
    if (!file.url.startsWith("data:") || !file.url.includes(",")) continue
    parts.push({ type: "data", mime: file.mime, data: file.url.slice(file.url.indexOf(",") + 1), file })
  }
  return parts
}

function userFile(file: FilePart, modelInput: readonly ModelModality[]): UserFile {
  const modality = modalityOf(file.mime)
  if (modality === undefined || modelInput.includes(modality)) return { type: "file", file }
  const what = file.filename === undefined ? modality : `"${file.filename}"`
  return {
    type: "error",
    text: `ERROR: Cannot read ${what} (this model does not support ${modality} input). Inform the user.`,
  }
}

/**
 * The responses API: the call's output item, its text or a list of `input_text`, `input_image` and
 * `input_file` parts, the data given back as a base64 data URL of the attachment's type. `openai`
 * takes every attachment in the result; `azure` moves images and PDFs to a user message after it,
 * of `input_text`, `input_image` and `input_file` parts (a PDF without a filename named after its
 * place in that message, `part-1.pdf`).
 */
function responsesItems(callID: string, result: ToolResult, userFiles: UserFile[]): unknown[] | null {
  const output =
    typeof result === "string"
      ? result
      : result.map((part) => {
          if (part.type === "text") return { type: "input_text", text: part.text }
          const url = `data:${part.mime};base64,${part.data}`
          return part.mime.startsWith("image/")
            ? { type: "input_image", image_url: url }
            : { type: "input_file", filename: "data", file_data: url }
        })
  const items: unknown[] = [{ type: "function_call_output", call_id: callID, output }]
  if (userFiles.length === 0) return items
  const content = movedParts({ type: "input_text", text: MOVED_MEDIA_TEXT }, userFiles, (userFile, before) => {
    if (userFile.type === "error") return { type: "input_text", text: userFile.text }
    const { file } = userFile
    if (!file.url.startsWith("data:")) return null
    return file.mime.startsWith("image/")
      ? { type: "input_image", image_url: file.url }
      : { type: "input_file", filename: file.filename ?? `part-${before}.pdf`, file_data: file.url }
  })
  if (!Array.isArray(content)) return null
  items.push({ role: "user", content })
  return items
}

/**
 * Anthropic's messages API: one user message holding the call's `tool_result` block, its content
 * the text, or a list of `text`, `image` and `document` blocks (base64 sources). `anthropic` takes
 * images and PDFs in the result, so nothing is moved to a user message; it sends no other file
 * there (@ai-sdk/anthropic leaves it out with a warning). The result is the last part of the
 * request's last message, so opencode marks it for prompt caching (`cache_control`), unless the
 * model's options cache the whole request.
 */
function anthropicMessages(
  callID: string,
  result: ToolResult,
  userFiles: UserFile[],
  cacheMarks: boolean,
): unknown[] | null {
  if (userFiles.length > 0) return null
  const content = typeof result === "string" ? result : result.flatMap(anthropicBlock)
  const block = { type: "tool_result", tool_use_id: callID, content, ...(cacheMarks ? CACHE_MARK : {}) }
  return [{ role: "user", content: [block] }]
}

function anthropicBlock(part: ContentPart): unknown[] {
  if (part.type === "text") return [{ type: "text", text: part.text }]
  const source = { type: "base64", media_type: part.mime, data: part.data }
  if (part.mime.startsWith("image/")) return [{ type: "image", source }]
  if (part.mime === "application/pdf") return [{ type: "document", source }]
  return []
}
