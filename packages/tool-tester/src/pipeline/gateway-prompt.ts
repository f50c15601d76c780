// What `@ai-sdk/gateway` sends for a result with attachments (docs/opencode-contract.md#attachments,
// observed on opencode 1.18.34 with e2e's mock model): the AI SDK's own prompt, which the gateway
// passes on as it is. The tool message holds one `tool-result` part, its output `{type: "text"}`
// for the text alone or `{type: "content"}` for the text and the files sent as data (`file-data`);
// images and PDFs are moved to a user message after it, as `file` parts of base64 data (named when
// the attachment is) or the error text for a model without that input. No caching marks: opencode
// sets none through the gateway (prompt-caching.ts).
import { MOVED_MEDIA_TEXT, movedParts, sdkContentParts, type ToolResult, type UserFile } from "./result-content.ts"

/** The prompt's messages for this result, or null for a moved file that is no `data:` URL (not observed). */
export function gatewayPrompt(
  call: { callID: string; toolName: string },
  result: ToolResult,
  userFiles: readonly UserFile[],
): unknown[] | null {
  const messages: unknown[] = [
    {
      role: "tool",
      content: [{ type: "tool-result", toolCallId: call.callID, toolName: call.toolName, output: outputOf(result) }],
    },
  ]
  if (userFiles.length === 0) return messages
  const parts = movedParts({ type: "text", text: MOVED_MEDIA_TEXT }, userFiles, movedPart)
  if (!Array.isArray(parts)) return null
  messages.push({ role: "user", content: parts })
  return messages
}

// --- internal ---

/** A moved file as a `file` part of its base64 data (null for one that is no `data:` URL), or its error text. */
function movedPart(userFile: UserFile): unknown {
  if (userFile.type === "error") return { type: "text", text: userFile.text }
  const { file } = userFile
  if (!file.url.startsWith("data:") || !file.url.includes(",")) return null
  return {
    type: "file",
    mediaType: file.mime,
    ...(file.filename === undefined ? {} : { filename: file.filename }),
    data: file.url.slice(file.url.indexOf(",") + 1),
  }
}

function outputOf(result: ToolResult): unknown {
  if (typeof result === "string") return { type: "text", value: result }
  return { type: "content", value: sdkContentParts(result) }
}
