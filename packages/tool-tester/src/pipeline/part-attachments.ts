// What opencode 1.18.34 keeps of a result's attachments once the tool has answered
// (docs/opencode-contract.md#attachments): only file parts (`type: "file"`, a string `mime` and
// `url`, a string `filename` or none); and each `image/*` one must be a base64 `data:` URL
// of an image it can decode (larger than 2000x2000 pixels or 5 MiB of base64 text, it shrinks it).
// An image that fails is dropped from the part, and the output says how many were.
import { isRecord } from "../_is-record.ts"
import { imageSize } from "./image-size.ts"

export type KeptAttachments = {
  output: string
  /** The attachments the part keeps, or undefined when none is left. */
  attachments: FilePart[] | undefined
}

/** The part's output and attachments after opencode's file-part filter and image step. */
export function partAttachments(output: string, attachments: unknown[]): KeptAttachments {
  let omitted = 0
  const kept = attachments.filter(isFilePart).filter((attachment) => {
    const readable = readableImage(attachment)
    if (!readable) omitted++
    return readable
  })
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

/**
 * False for an image opencode drops: not a base64 data URL, or not one it can decode. One over the
 * limits opencode shrinks; tool-tester keeps it as it is (docs/fidelity.md#smaller-differences).
 */
function readableImage(attachment: FilePart): boolean {
  if (!attachment.mime.startsWith("image/")) return true
  const url = attachment.url
  if (!url.startsWith("data:") || !url.includes(";base64,")) return false
  return imageSize(Buffer.from(url.slice(url.indexOf(";base64,") + ";base64,".length), "base64")) !== undefined
}
