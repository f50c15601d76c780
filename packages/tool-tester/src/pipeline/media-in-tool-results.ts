// Which providers opencode 1.18.34 sends an image or PDF attachment to inside the tool result
// itself; for the others it moves that attachment to a user message after the call
// (docs/opencode-contract.md#attachments). Keyed off the provider's npm package and the model's
// API id, as opencode keys it.
import type { ModelSelection } from "./builtins.ts"

/** An image or a PDF: what opencode treats as media (other files always stay in the tool result). */
export function isMedia(mime: string): boolean {
  return mime.startsWith("image/") || mime === "application/pdf"
}

/** True when `model`'s provider takes this media attachment inside the tool result. */
export function takesMediaInToolResult(model: ModelSelection, mime: string): boolean {
  const id = model.modelID.toLowerCase()
  const image = mime.startsWith("image/")
  switch (model.npm) {
    case "@ai-sdk/anthropic":
    case "@ai-sdk/openai":
    case "@ai-sdk/amazon-bedrock/mantle":
    case "@ai-sdk/google-vertex/anthropic":
      return true
    case "@ai-sdk/amazon-bedrock":
      return image && ["anthropic.", "nova", "llama4", "llama-4"].some((part) => id.includes(part))
    case "@ai-sdk/xai":
      return image
    case "@ai-sdk/google":
      return id.includes("gemini-3") && !id.includes("gemini-2")
    default:
      return false
  }
}

/** The input modality a file's type needs (`image`, `audio`, `video`, `pdf`), if any. */
export function modalityOf(mime: string): "image" | "audio" | "video" | "pdf" | undefined {
  if (mime.startsWith("image/")) return "image"
  if (mime.startsWith("audio/")) return "audio"
  if (mime.startsWith("video/")) return "video"
  if (mime === "application/pdf") return "pdf"
  return undefined
}
