// opencode's image step for a result's `image/*` attachments (docs/opencode-contract.md#attachments),
// with the library opencode 1.18.34 does it with, @silvia-odwyer/photon-node 0.3.4, so the bytes the
// model gets are the same. An image must be a base64 `data:` URL photon can decode. One within the
// config's limits (attachment.image, 2000x2000 pixels and 5 MiB of base64 text by default) is kept
// as it is. A larger one is scaled to fit (Lanczos3), then down by a quarter at a time, each size
// encoded as a PNG, then as a JPEG at quality 80, 85, 70, 55 and 40, and the first encoding whose
// base64 text is within the limit replaces it. With `auto_resize: false`, or when nothing fits, the
// image is dropped.
import { createRequire } from "node:module"
import type { PhotonImage } from "@silvia-odwyer/photon-node"
import type { ImageLimits } from "../config/attachment-image.ts"

/** An attachment with an `image/*` mime: its `url` and `mime` are what the step reads and may change. */
export type ImageAttachment = { mime: string; url: string }

/** The image as opencode sends it on (the same object when it is kept as it is), or undefined when it drops it. */
export function normalizeImage<T extends ImageAttachment>(attachment: T, limits: ImageLimits): T | undefined {
  const marker = attachment.url.indexOf(";base64,")
  if (!attachment.url.startsWith("data:") || marker === -1) return undefined
  const text = attachment.url.slice(marker + ";base64,".length)
  const textBytes = Buffer.byteLength(text, "utf8")
  const library = photon()
  let image: PhotonImage
  try {
    image = library.PhotonImage.new_from_byteslice(Buffer.from(text, "base64"))
  } catch {
    return undefined
  }
  try {
    const width = image.get_width()
    const height = image.get_height()
    if (width <= limits.maxWidth && height <= limits.maxHeight && textBytes <= limits.maxBase64Bytes) return attachment
    if (!limits.autoResize) return undefined
    for (const size of triedSizes(width, height, limits)) {
      const resized = library.resize(image, size.width, size.height, library.SamplingFilter.Lanczos3)
      try {
        const fitting = fittingEncoding(resized, limits.maxBase64Bytes)
        if (fitting !== undefined)
          return { ...attachment, mime: fitting.mime, url: `data:${fitting.mime};base64,${fitting.text}` }
      } finally {
        resized.free()
      }
    }
    return undefined
  } finally {
    image.free()
  }
}

// --- internal ---

type Photon = typeof import("@silvia-odwyer/photon-node")

/** The JPEG qualities opencode tries after the PNG, in its order. */
const JPEG_QUALITIES = [80, 85, 70, 55, 40]

/** The most sizes opencode tries. */
const MOST_SIZES = 32

let loaded: Photon | undefined

/** The library, loaded on the first image (compiling its WebAssembly takes 15-60 ms). */
function photon(): Photon {
  loaded ??= createRequire(import.meta.url)("@silvia-odwyer/photon-node") as Photon
  return loaded
}

/**
 * The sizes tried, largest first: the image scaled to fit the limits (never up), then each side
 * three quarters of the one before (rounded down, never below 1), until a size repeats.
 */
function triedSizes(width: number, height: number, limits: ImageLimits): Array<{ width: number; height: number }> {
  const scale = Math.min(1, limits.maxWidth / width, limits.maxHeight / height)
  const sizes = [{ width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) }]
  while (sizes.length < MOST_SIZES) {
    const last = sizes[sizes.length - 1]!
    const next = { width: smaller(last.width), height: smaller(last.height) }
    if (next.width === last.width && next.height === last.height) break
    sizes.push(next)
  }
  return sizes
}

function smaller(side: number): number {
  return side === 1 ? 1 : Math.max(1, Math.floor(side * 0.75))
}

/** The PNG, else the first JPEG, whose base64 text is at most `maxBytes` long. */
function fittingEncoding(image: PhotonImage, maxBytes: number): { mime: string; text: string } | undefined {
  const encodings = [
    { mime: "image/png", encode: () => image.get_bytes() },
    ...JPEG_QUALITIES.map((quality) => ({ mime: "image/jpeg", encode: () => image.get_bytes_jpeg(quality) })),
  ]
  for (const { mime, encode } of encodings) {
    const text = Buffer.from(encode()).toString("base64")
    if (Buffer.byteLength(text, "utf8") <= maxBytes) return { mime, text }
  }
  return undefined
}
