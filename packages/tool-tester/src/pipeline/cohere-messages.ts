// What `@ai-sdk/cohere` sends for a result with attachments (docs/opencode-contract.md#attachments,
// observed on opencode 1.18.34 with e2e's mock model): Cohere's chat messages, whose contents are
// text. The tool message holds the result's text alone, or the AI SDK's content parts as JSON text
// (the text, and each file sent as data as a `file-data` part with its base64 data). Images and
// PDFs are moved, as for any provider that takes none in a result, to a user message after it:
// its text is opencode's heading and, for a model without that input, the error text; a file the
// model reads adds nothing to it but becomes one of the request's `documents`, `{data: {text,
// title}}`, its text the file's base64 data as it is (not decoded) and its title the file's name.
// The request's `documents` hold those of every moved file of the conversation, in order.
import { MOVED_MEDIA_TEXT, movedParts, sdkContentParts, type ToolResult, type UserFile } from "./result-content.ts"

/** The messages and documents this result adds to the request, or null for a moved file that is no `data:` URL (not observed). */
export function cohereMessages(
  callID: string,
  result: ToolResult,
  userFiles: readonly UserFile[],
): { messages: unknown[]; documents: unknown[] } | null {
  const content = typeof result === "string" ? result : JSON.stringify(sdkContentParts(result))
  const messages: unknown[] = [{ role: "tool", content, tool_call_id: callID }]
  const documents: unknown[] = []
  if (userFiles.length === 0) return { messages, documents }
  // The user message's parts are texts, joined into its content; a file's is empty.
  const parts = movedParts({ text: MOVED_MEDIA_TEXT }, userFiles, (userFile) => {
    if (userFile.type === "error") return { text: userFile.text }
    const { file } = userFile
    if (!file.url.startsWith("data:") || !file.url.includes(",")) return null
    const text = file.url.slice(file.url.indexOf(",") + 1)
    documents.push({ data: { text, ...(file.filename === undefined ? {} : { title: file.filename }) } })
    return { text: "" }
  })
  if (!Array.isArray(parts)) return null
  messages.push({ role: "user", content: parts.map((part) => (part as { text: string }).text).join("") })
  return { messages, documents }
}
