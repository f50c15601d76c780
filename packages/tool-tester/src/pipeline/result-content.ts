// A result with attachments as every provider's request is written from it (model-messages.ts): the
// result opencode hands the provider (its text, or its text and the files sent as data) and the
// files it moves to a user message after the call.
import type { FilePart } from "./part-attachments.ts"

/** The text opencode puts before the files it moves to a user message. */
export const MOVED_MEDIA_TEXT = "Attached media from tool result:"

/** A tool result's parts: its text (when not empty) and the attachments sent as data. */
export type ContentPart = { type: "text"; text: string } | { type: "data"; mime: string; data: string; file: FilePart }

/** The result: its text alone when no attachment is sent with it, else its parts. */
export type ToolResult = string | ContentPart[]

/** A moved attachment as the model gets it: the file, or the error text for a model without that input. */
export type UserFile = { type: "error"; text: string } | { type: "file"; file: FilePart }

/**
 * The parts of what opencode adds after a result for the files it moved, in one provider's API:
 * `heading` (MOVED_MEDIA_TEXT as that API writes text), then each file as `partOf` writes it, told
 * how many parts come before it. `partOf` answers a part, null for a file the API's form was not
 * observed with, or the error text the provider's package fails the request with; the first such
 * answer is the whole answer.
 */
export function movedParts(
  heading: unknown,
  userFiles: readonly UserFile[],
  partOf: (userFile: UserFile, before: number) => unknown,
): unknown[] | string | null {
  const parts: unknown[] = [heading]
  for (const userFile of userFiles) {
    const part = partOf(userFile, parts.length)
    if (part === null || typeof part === "string") return part
    parts.push(part)
  }
  return parts
}

/**
 * The result's parts as the AI SDK's tool output `content` holds them: `text`, `image-data` and
 * `file-data` parts of base64 data (what the gateway sends as it is, and Cohere as JSON text).
 */
export function sdkContentParts(result: readonly ContentPart[]): unknown[] {
  return result.map((part) =>
    part.type === "text"
      ? { type: "text", text: part.text }
      : { type: part.mime.startsWith("image/") ? "image-data" : "file-data", data: part.data, mediaType: part.mime },
  )
}
