// What opencode 1.18.34 keeps of a result's attachments once the tool has answered
// (docs/opencode-contract.md#attachments): only file parts (`type: "file"`, a string `mime` and
// `url`, a string `filename` or none, a `source` its schema takes, and the part id, session and
// message it stamps on each before the after hooks); and each `image/*` one goes through its image step
// (normalize-image.ts: decoded, shrunk to the config's limits). An image that fails is dropped
// from the part, and the output says how many were.
import { isRecord } from "../_is-record.ts"
import { ascendingId } from "./ascending-id.ts"
import type { ImageLimits } from "../config/attachment-image.ts"
import { isFilePartSource } from "./file-part-source.ts"
import { normalizeImage } from "./normalize-image.ts"

export type KeptAttachments = {
  output: string
  /** The attachments the part keeps, or undefined when none is left. */
  attachments: FilePart[] | undefined
}

/** The session and message of the call: attachments stamped with them are its own. */
export type CallIds = { sessionID: string; messageID: string }

/**
 * Each attachment as opencode hands it to the after hooks: a copy with a part id of its own and
 * the call's session and message (observed: a hook sees `id`, `sessionID`, `messageID`).
 */
export function stampAttachments(attachments: readonly unknown[], ids: CallIds): unknown[] {
  return attachments.map((attachment) => ({
    ...(attachment as object),
    id: ascendingId("prt"),
    sessionID: ids.sessionID,
    messageID: ids.messageID,
  }))
}

/** The part's output and attachments after opencode's file-part filter and image step. */
export function partAttachments(
  output: string,
  attachments: unknown[],
  limits: ImageLimits,
  ids: CallIds,
): KeptAttachments {
  let omitted = 0
  const kept: FilePart[] = []
  for (const attachment of attachments.filter((each) => isFilePart(each, ids))) {
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
export type FilePart = {
  type: "file"
  mime: string
  url: string
  filename?: string
  id: string
  sessionID: string
  messageID: string
}

// --- internal ---

/**
 * opencode's check: its ids are branded by prefix (`prt`, `ses`, `msg`), so an attachment an after
 * hook added without them, or with an `id` such as `custom`, is left out (observed). The call's own
 * session and message stand for opencode's, whatever a caller named them (`runTool`'s `sessionID`).
 */
function isFilePart(attachment: unknown, ids: CallIds): attachment is FilePart {
  return (
    isRecord(attachment) &&
    attachment["type"] === "file" &&
    typeof attachment["mime"] === "string" &&
    typeof attachment["url"] === "string" &&
    (attachment["filename"] === undefined || typeof attachment["filename"] === "string") &&
    isBrandedId(attachment["id"], "prt") &&
    (attachment["sessionID"] === ids.sessionID || isBrandedId(attachment["sessionID"], "ses")) &&
    (attachment["messageID"] === ids.messageID || isBrandedId(attachment["messageID"], "msg")) &&
    isFilePartSource(attachment["source"])
  )
}

function isBrandedId(value: unknown, prefix: string): boolean {
  return typeof value === "string" && value.startsWith(prefix)
}
