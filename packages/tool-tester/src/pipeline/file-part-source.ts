// The `source` a file part may carry, as opencode's part schema takes it (FilePartSource; observed
// on the 1.18.34 binary, docs/opencode-contract.md#attachments): a file part whose `source` is
// anything else is left out of the result. `text` is `{ value: string, start, end }` with finite
// numbers; a `file` source has a string `path`, a `symbol` one a `path`, a `name`, a `kind` and a
// `range` of `{ line, character }` positions (whole numbers from 0, safe integers), a `resource`
// one a `clientName` and a `uri`. Other keys are left alone.
import { isRecord } from "../_is-record.ts"

/** True for what opencode's schema takes as a file part's `source` (undefined: none). */
export function isFilePartSource(source: unknown): boolean {
  if (source === undefined) return true
  if (!isRecord(source) || !isSourceText(source["text"])) return false
  switch (source["type"]) {
    case "file":
      return typeof source["path"] === "string"
    case "symbol":
      return (
        typeof source["path"] === "string" &&
        typeof source["name"] === "string" &&
        isCount(source["kind"]) &&
        isRange(source["range"])
      )
    case "resource":
      return typeof source["clientName"] === "string" && typeof source["uri"] === "string"
    default:
      return false
  }
}

// --- internal ---

function isSourceText(text: unknown): boolean {
  return (
    isRecord(text) &&
    typeof text["value"] === "string" &&
    Number.isFinite(text["start"]) &&
    Number.isFinite(text["end"])
  )
}

function isRange(range: unknown): boolean {
  return isRecord(range) && isPosition(range["start"]) && isPosition(range["end"])
}

function isPosition(position: unknown): boolean {
  return isRecord(position) && isCount(position["line"]) && isCount(position["character"])
}

/** A whole number from 0 that is a safe integer (2^53 is refused, 2^31 taken: observed). */
function isCount(value: unknown): boolean {
  return Number.isSafeInteger(value) && (value as number) >= 0
}
