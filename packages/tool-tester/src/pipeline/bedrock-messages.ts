// Bedrock's Converse API (`@ai-sdk/amazon-bedrock`), as opencode 1.18.34's next request carries a
// result (docs/opencode-contract.md#attachments, observed): one user message whose content is the
// call's `toolResult` block, then, when opencode moved images or PDFs out of the result, the text
// `Attached media from tool result:` and those files, all in that one message (Converse merges the
// tool message and the user message after it). A result's files are `document` blocks named
// `document-1`, `document-2`, ... in the order the request holds them (the result's first, then
// the moved PDFs without a filename), images `image` blocks; a moved PDF with a filename is named
// after it up to its first dot. With caching marks (an Anthropic model), a `cachePoint` follows
// the result, and another the moved files. A file type Converse has no document format for fails
// the request, and so opencode's run.
import type { ModelSelection } from "./builtins.ts"
import { type ContentPart, MOVED_MEDIA_TEXT, movedParts, type ToolResult, type UserFile } from "./result-content.ts"

/** The request's message for this result, its error, or null for a form not observed. */
export function bedrockMessages(
  callID: string,
  model: ModelSelection,
  result: ToolResult,
  userFiles: UserFile[],
  cacheMarks: boolean,
): { messages: unknown[] } | { error: string } | null {
  const names = documentNames()
  const content: unknown[] = []
  for (const part of typeof result === "string" ? [{ type: "text" as const, text: result }] : result) {
    const block = resultBlock(part, names)
    if (typeof block === "string") return { error: block }
    content.push(block)
  }
  const blocks: unknown[] = [{ toolResult: { toolUseId: bedrockToolUseId(callID, model.modelID), content } }]
  if (cacheMarks) blocks.push(CACHE_POINT)
  if (userFiles.length > 0) {
    const moved = movedParts({ text: MOVED_MEDIA_TEXT }, userFiles, (userFile) => movedBlock(userFile, names))
    if (!Array.isArray(moved)) return moved === null ? null : { error: moved }
    blocks.push(...moved)
    if (cacheMarks) blocks.push(CACHE_POINT)
  }
  return { messages: [{ role: "user", content: blocks }] }
}

/** A call's id as Converse carries it: a Mistral model's cut to its first 9 letters and digits. */
export function bedrockToolUseId(callID: string, modelID: string): string {
  return modelID.includes("mistral.") ? callID.replace(/[^a-zA-Z0-9]/g, "").slice(0, 9) : callID
}

// --- internal ---

const CACHE_POINT = { cachePoint: { type: "default" } }

const IMAGE_FORMATS: Readonly<Record<string, string>> = {
  "image/jpeg": "jpeg",
  "image/png": "png",
  "image/gif": "gif",
  "image/webp": "webp",
}

const DOCUMENT_FORMATS: Readonly<Record<string, string>> = {
  "application/pdf": "pdf",
  "text/csv": "csv",
  "application/msword": "doc",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
  "application/vnd.ms-excel": "xls",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
  "text/html": "html",
  "text/plain": "txt",
  "text/markdown": "md",
}

/** The next `document-N` name, counted over the request. */
function documentNames(): () => string {
  let count = 0
  return () => `document-${++count}`
}

/** A block of the result's content, or the error text of a file type Converse does not take. */
function resultBlock(part: ContentPart | { type: "text"; text: string }, nextName: () => string): unknown {
  if (part.type === "text") return { text: part.text }
  const bytes = { bytes: part.data }
  if (part.mime.startsWith("image/")) {
    const format = IMAGE_FORMATS[part.mime]
    return format === undefined ? imageError(part.mime) : { image: { format, source: bytes } }
  }
  const format = DOCUMENT_FORMATS[part.mime]
  if (format === undefined)
    return `Unsupported file mime type: ${part.mime}, expected one of: ${Object.keys(DOCUMENT_FORMATS).join(", ")}`
  return { document: { format, name: nextName(), source: bytes } }
}

/** A moved image or PDF (or its error text for a model without that input); null for a URL that is not data. */
function movedBlock(userFile: UserFile, nextName: () => string): unknown {
  if (userFile.type === "error") return { text: userFile.text }
  const { file } = userFile
  if (!file.url.startsWith("data:") || !file.url.includes(",")) return null
  const bytes = { bytes: file.url.slice(file.url.indexOf(",") + 1) }
  if (file.mime.startsWith("image/")) {
    const format = IMAGE_FORMATS[file.mime]
    return format === undefined ? imageError(file.mime) : { image: { format, source: bytes } }
  }
  const name = file.filename === undefined || file.filename === "" ? nextName() : file.filename.split(".")[0]!
  // Only images and PDFs are moved.
  return { document: { format: "pdf", name, source: bytes } }
}

function imageError(mime: string): string {
  return `Unsupported image mime type: ${mime}, expected one of: ${Object.keys(IMAGE_FORMATS).join(", ")}`
}
