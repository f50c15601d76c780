// Google's generateContent, as `@ai-sdk/google` 3.0.73 writes a tool result into opencode 1.18.34's
// next request (docs/opencode-contract.md#attachments): a `user` content holding the call's
// `functionResponse` part, named for the tool (Google's calls carry no id), then the `user` content
// of the images and PDFs opencode moved out of the result. Two choices meet here, each keyed off
// the model's id its own way: opencode keeps media in the result for ids with `gemini-3` and
// without `gemini-2` (media-in-tool-results.ts), and `@ai-sdk/google` writes a result's files
// inside its `functionResponse` only for ids starting with `gemini-3`; before that, each part of
// the result is a part of its own. `@ai-sdk/google-vertex` sends
// the same contents, but for a file of its own in that last form: `inlineData` and a sentence, not
// the JSON text of opencode's part (observed); opencode never keeps its media in the result.
import { type ContentPart, MOVED_MEDIA_TEXT, movedParts, type ToolResult, type UserFile } from "./result-content.ts"

/** The request's contents for this result, or null for a moved file in a form not observed. */
export function googleContents(
  toolName: string,
  modelID: string,
  result: ToolResult,
  userFiles: readonly UserFile[],
  vertex = false,
): unknown[] | null {
  const resultParts =
    typeof result === "string"
      ? [functionResponse(toolName, result)]
      : modelID.startsWith("gemini-3")
        ? [filesInResponse(toolName, result)]
        : result.flatMap((part) => partOfItsOwn(toolName, part, vertex))
  const contents: unknown[] = [{ role: "user", parts: resultParts }]
  if (userFiles.length === 0) return contents
  const moved = movedParts({ text: MOVED_MEDIA_TEXT }, userFiles, (userFile) => movedPart(userFile) ?? null)
  if (!Array.isArray(moved)) return null
  contents.push({ role: "user", parts: moved })
  return contents
}

// --- internal ---

function functionResponse(toolName: string, content: string, files: unknown[] = []): unknown {
  return {
    functionResponse: {
      name: toolName,
      response: { name: toolName, content },
      ...(files.length > 0 ? { parts: files } : {}),
    },
  }
}

/** gemini-3: one `functionResponse`, its texts joined by lines and its files as `inlineData` parts. */
function filesInResponse(toolName: string, result: ContentPart[]): unknown {
  const texts = result.flatMap((part) => (part.type === "text" ? [part.text] : []))
  const files = result.flatMap((part) => (part.type === "data" ? [inlineData(part.mime, part.data)] : []))
  return functionResponse(toolName, texts.length > 0 ? texts.join("\n") : "Tool executed successfully.", files)
}

/**
 * Before gemini-3: the text as a `functionResponse` (none when the output is empty), an image as
 * an `inlineData` part and a sentence, any other file as the JSON text of the part opencode gave
 * (with Vertex, as an `inlineData` part and a sentence too).
 */
function partOfItsOwn(toolName: string, part: ContentPart, vertex: boolean): unknown[] {
  if (part.type === "text") return [functionResponse(toolName, part.text)]
  if (part.mime.startsWith("image/"))
    return [
      inlineData(part.mime, part.data),
      { text: "Tool executed successfully and returned this image as a response" },
    ]
  if (vertex)
    return [
      inlineData(part.mime, part.data),
      { text: "Tool executed successfully and returned this file as a response" },
    ]
  return [{ text: JSON.stringify({ type: "file-data", data: part.data, mediaType: part.mime }) }]
}

/** A moved file: its base64 data as `inlineData`; undefined for a form not observed. */
function movedPart(userPart: UserFile): unknown {
  if (userPart.type === "error") return { text: userPart.text }
  const match = /^data:([^;,]+);base64,(.+)$/s.exec(userPart.file.url)
  return match === null ? undefined : inlineData(userPart.file.mime, match[2]!)
}

function inlineData(mimeType: string, data: string): unknown {
  return { inlineData: { mimeType, data } }
}
