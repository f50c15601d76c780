// Chat completions as each provider package of that API writes a result into opencode 1.18.34's
// next request (docs/opencode-contract.md#attachments, observed): the tool message, then the user
// message opencode adds for the images and PDFs it moved out of the result. The packages agree on
// the shape and differ in the details, one dialect each:
// - `@ai-sdk/openai-compatible` and the packages built on it (cerebras, togetherai, deepinfra,
//   vercel), groq, and Bedrock's OpenAI-compatible mantle: the tool message's content is the text,
//   or the JSON text of its parts (`file-data`, and `image-data` for an image the provider keeps);
// - xai: the same, but a PDF the model reads fails the request;
// - groq: the same, but a PDF the model reads fails the request with its own words;
// - github-copilot: as xai (with its chat API: see chatDialectOf), its caching marks named
//   `copilot_cache_control`;
// - alibaba: always marked for caching (prompt-caching.ts), the tool message's content a list of one
//   `text` part that carries the mark; a PDF the model reads fails the request with its own words;
// - mistral: the tool message names the tool, and a moved image or PDF is a plain URL string;
// - openrouter: the tool message's content is a list of parts, its files as `file` parts, and it
//   names the tool last;
// - venice (`venice-ai-sdk-provider`): a result with files keeps only its text in the tool
//   message, and a user message after it says `[Tool Result: <id>]` with that text and gives each
//   audio file as `input_audio` and each video as `video_url`; any other file fails the request; a
//   moved PDF the model reads fails it as with xai; its caching marks (a claude id) go on the last
//   part of a message whose content becomes a list of parts.
import type { ModelSelection } from "./builtins.ts"
import { MOVED_MEDIA_TEXT, movedParts, sdkContentParts, type ToolResult, type UserFile } from "./result-content.ts"

export type ChatDialect =
  | "openai-compatible"
  | "xai"
  | "groq"
  | "mistral"
  | "openrouter"
  | "github-copilot"
  | "alibaba"
  | "venice"

/**
 * The dialect of a provider package that speaks chat completions, if it is one observed; undefined
 * for the provider `github-copilot`'s models that may go to its responses API (copilotResponsesModel).
 */
export function chatDialectOf(model: ModelSelection): ChatDialect | undefined {
  if (model.npm === "@ai-sdk/github-copilot" && copilotResponsesModel(model)) return undefined
  return CHAT_DIALECTS[model.npm]
}

/**
 * The request's messages for this result, the error the package fails the request with, or null
 * for a form not observed. With caching marks (an Anthropic model behind `openai-compatible`), the
 * tool message carries one, and so does the last part of the user message after it: in the
 * request right after the call, they are two of its last two messages.
 */
export function chatMessages(
  dialect: ChatDialect,
  call: { callID: string; toolName: string },
  result: ToolResult,
  userFiles: UserFile[],
  cacheMarks: boolean,
): { messages: unknown[] } | { error: string } | null {
  if (cacheMarks && !MARKED_DIALECTS.includes(dialect)) return null
  if (!cacheMarks && dialect === "alibaba") return null
  const carried =
    dialect === "venice"
      ? veniceResult(call.callID, result, cacheMarks)
      : [toolMessage(dialect, call, result, cacheMarks)]
  if ("error" in carried) return carried
  const messages: unknown[] = [...carried]
  if (userFiles.length === 0) return { messages }
  const parts = movedParts({ type: "text", text: MOVED_MEDIA_TEXT }, userFiles, (userFile) =>
    userPart(dialect, userFile),
  )
  if (!Array.isArray(parts)) return parts === null ? null : { error: parts }
  if (cacheMarks) parts.push({ ...(parts.pop() as object), ...cacheMark(dialect) })
  messages.push({ role: "user", content: parts })
  return { messages }
}

// --- internal ---

const CHAT_DIALECTS: Readonly<Record<string, ChatDialect>> = {
  "@ai-sdk/openai-compatible": "openai-compatible",
  "@ai-sdk/cerebras": "openai-compatible",
  "@ai-sdk/togetherai": "openai-compatible",
  "@ai-sdk/deepinfra": "openai-compatible",
  "@ai-sdk/vercel": "openai-compatible",
  "@ai-sdk/amazon-bedrock/mantle": "openai-compatible",
  "@ai-sdk/xai": "xai",
  "@ai-sdk/groq": "groq",
  "@ai-sdk/mistral": "mistral",
  "@openrouter/ai-sdk-provider": "openrouter",
  "@ai-sdk/github-copilot": "github-copilot",
  "@ai-sdk/alibaba": "alibaba",
  "venice-ai-sdk-provider": "venice",
}

/** The dialects whose form with opencode's caching marks was observed. */
const MARKED_DIALECTS: readonly ChatDialect[] = ["openai-compatible", "xai", "github-copilot", "alibaba", "venice"]

/** opencode's prompt-caching mark, under the name the dialect's package sends. */
function cacheMark(dialect: ChatDialect): Record<string, unknown> {
  const mark = { type: "ephemeral" }
  return dialect === "github-copilot" ? { copilot_cache_control: mark } : { cache_control: mark }
}

/**
 * The rule opencode's code has for the provider `github-copilot`: `gpt-N` with N of 5 or more, but
 * `gpt-5-mini`, to the responses API. Read, not observed (a config's own `github-copilot` provider
 * got chat completions for `gpt-5`: docs/opencode-contract.md#attachments), so those stay unmodelled.
 */
function copilotResponsesModel(model: ModelSelection): boolean {
  if (model.providerID !== "github-copilot") return false
  const version = /^gpt-(\d+)/.exec(model.modelID)
  return version !== null && Number(version[1]) >= 5 && !model.modelID.startsWith("gpt-5-mini")
}

function toolMessage(
  dialect: ChatDialect,
  { callID, toolName }: { callID: string; toolName: string },
  result: ToolResult,
  cacheMarks: boolean,
): unknown {
  if (dialect === "mistral") return { role: "tool", name: toolName, tool_call_id: callID, content: jsonContent(result) }
  if (dialect === "openrouter")
    return { role: "tool", tool_call_id: callID, content: partsContent(result), name: toolName }
  if (dialect === "alibaba")
    return {
      role: "tool",
      tool_call_id: callID,
      content: [{ type: "text", text: jsonContent(result), ...cacheMark(dialect) }],
    }
  return { role: "tool", tool_call_id: callID, content: jsonContent(result), ...(cacheMarks ? cacheMark(dialect) : {}) }
}

/** The text, or the JSON text of the parts: `text`, `image-data` for an image, `file-data` for others. */
function jsonContent(result: ToolResult): string {
  return typeof result === "string" ? result : JSON.stringify(sdkContentParts(result))
}

/**
 * Venice's messages for a result: with files, the tool message holds its text (a newline when it
 * has none) and a user message after it the text again under `[Tool Result: <id>]`, then each
 * audio file as `input_audio` (its format from its type, `wav` when not known) and each video as
 * `video_url` (a data URL). Another file fails the request (the first in order). With caching
 * marks (a claude id), a marked message's content is a list of parts, the last one marked: the
 * tool message's when the result has no files, else the user message's.
 */
function veniceResult(callID: string, result: ToolResult, cacheMarks: boolean): unknown[] | { error: string } {
  const marked = (parts: Array<Record<string, unknown>>) =>
    cacheMarks ? [...parts.slice(0, -1), { ...parts.at(-1), ...cacheMark("venice") }] : parts
  if (typeof result === "string" || result.every((part) => part.type === "text")) {
    const text = jsonContent(result)
    const content = cacheMarks ? marked([{ type: "text", text }]) : text
    return [{ role: "tool", tool_call_id: callID, content }]
  }
  const texts = result.flatMap((part) => (part.type === "text" ? [part.text] : []))
  const media: Array<Record<string, unknown>> = []
  for (const part of result) {
    if (part.type === "text") continue
    if (part.mime.startsWith("video/")) {
      media.push({ type: "video_url", video_url: { url: `data:${part.mime};base64,${part.data}` } })
      continue
    }
    if (!part.mime.startsWith("audio/"))
      return { error: `'file part media type ${part.mime}' functionality not supported.` }
    const format = AUDIO_FORMATS[part.mime.toLowerCase()] ?? "wav"
    media.push({ type: "input_audio", input_audio: { data: part.data, format } })
  }
  const heading = texts.length > 0 ? `[Tool Result: ${callID}]\n${texts.join("\n")}` : `[Tool Result: ${callID}]`
  return [
    { role: "tool", tool_call_id: callID, content: texts.join("\n") || "\n" },
    { role: "user", content: marked([{ type: "text", text: heading }, ...media]) },
  ]
}

/** Venice's audio formats by type. */
const AUDIO_FORMATS: Readonly<Record<string, string>> = {
  "audio/wav": "wav",
  "audio/mpeg": "mp3",
  "audio/mp3": "mp3",
  "audio/aiff": "aiff",
  "audio/aac": "aac",
  "audio/ogg": "ogg",
  "audio/flac": "flac",
  "audio/m4a": "m4a",
  "audio/pcm": "pcm16",
}

/** openrouter's: the text, or a list of `text` parts and `file` parts with a base64 data URL and no filename. */
function partsContent(result: ToolResult): unknown {
  if (typeof result === "string") return result
  return result.map((part) =>
    part.type === "text"
      ? { type: "text", text: part.text }
      : { type: "file", file: { filename: "", file_data: `data:${part.mime};base64,${part.data}` } },
  )
}

/** A moved file (or its error text) in the user message, the error text the request fails with, or null. */
function userPart(dialect: ChatDialect, userFile: UserFile): unknown {
  if (userFile.type === "error") return { type: "text", text: userFile.text }
  const { file } = userFile
  if (!file.url.startsWith("data:")) return null
  if (file.mime.startsWith("image/"))
    return dialect === "mistral"
      ? { type: "image_url", image_url: file.url }
      : { type: "image_url", image_url: { url: file.url } }
  if (file.mime !== "application/pdf") return null
  switch (dialect) {
    case "xai":
    case "github-copilot":
    case "venice":
      return `'file part media type ${file.mime}' functionality not supported.`
    case "groq":
      return "'Non-image file content parts' functionality not supported."
    case "alibaba":
      return "'Only image file parts are supported' functionality not supported."
    case "mistral":
      return { type: "document_url", document_url: file.url }
    case "openrouter":
      return { type: "file", file: { filename: file.filename ?? "", file_data: file.url } }
    default:
      return { type: "file", file: { filename: file.filename ?? "document.pdf", file_data: file.url } }
  }
}
