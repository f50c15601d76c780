// What opencode 1.18.34 keeps of a result's attachments once the tool has answered
// (docs/opencode-contract.md#attachments): only file parts (`type: "file"`, a string `mime` and
// `url`, a string `filename` or none); and each `image/*` one goes through its image step
// (normalize-image.ts: decoded, shrunk to the config's limits). An image that fails is dropped
// from the part, and the output says how many were.
import { isRecord } from "../_is-record.ts"
import type { ImageLimits } from "../config/attachment-image.ts"
import { normalizeImage } from "./normalize-image.ts"

export type KeptAttachments = {
  output: string
  /** The attachments the part keeps, or undefined when none is left. */
  attachments: FilePart[] | undefined
}

/** The part's output and attachments after opencode's file-part filter and image step. */
export function partAttachments(output: string, attachments: unknown[], limits: ImageLimits): KeptAttachments {
  let omitted = 0
  const kept: FilePart[] = []
  for (const attachment of attachments.filter(isFilePart)) {
    const sent = attachment.mime.startsWith("image/") ? normalizeImage(attachment, limits) : attachment
    if (sent === undefined) omitted++
    else kept.push(sent)
  }
  const note =
    omitted === 0
      ? ""
      : `\n\n[${omitted} image${omitted === 1 ? "" : "s"} omitted: could not be resized below the image size limit.]`
  return { output: output + note, attachments: kept.length > 0 ? kept : undefined }
}

/** A file part as opencode's schema takes it; anything else it leaves out of the part. */
export type FilePart = { type: "file"; mime: string; url: string; filename?: string }

// --- internal ---

function isFilePart(attachment: unknown): attachment is FilePart {
  return (
    isRecord(attachment) &&
    attachment["type"] === "file" &&
    typeof attachment["mime"] === "string" &&
    typeof attachment["url"] === "string" &&
    (attachment["filename"] === undefined || typeof attachment["filename"] === "string")
  )
}
