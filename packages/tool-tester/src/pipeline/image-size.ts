// The width and height an image's header gives, for the formats opencode's image step can decode
// (docs/opencode-contract.md#attachments). A PNG's pixel data is inflated and its length checked
// too; of the other formats only the header is read: one whose header is good but whose pixels are
// not passes here, where opencode fails to decode it.
import { inflateSync } from "node:zlib"

export type ImageSize = { width: number; height: number }

/** The size from the header of a PNG, JPEG, GIF, BMP or WebP file; undefined for anything else. */
export function imageSize(bytes: Buffer): ImageSize | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return pngSize(bytes)
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return jpegSize(bytes)
  if (bytes.toString("latin1", 0, 4) === "GIF8")
    return sized(
      bytes,
      10,
      () => bytes.readUInt16LE(6),
      () => bytes.readUInt16LE(8),
    )
  if (bytes.toString("latin1", 0, 2) === "BM")
    return sized(
      bytes,
      26,
      () => bytes.readInt32LE(18),
      () => Math.abs(bytes.readInt32LE(22)),
    )
  if (bytes.toString("latin1", 0, 4) === "RIFF" && bytes.toString("latin1", 8, 12) === "WEBP") return webpSize(bytes)
  return undefined
}

// --- internal ---

function startsWith(bytes: Buffer, prefix: number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((byte, index) => bytes[index] === byte)
}

function sized(bytes: Buffer, needed: number, width: () => number, height: () => number): ImageSize | undefined {
  if (bytes.length < needed) return undefined
  const size = { width: width(), height: height() }
  return size.width > 0 && size.height > 0 ? size : undefined
}

function pngSize(bytes: Buffer): ImageSize | undefined {
  if (bytes.toString("latin1", 12, 16) !== "IHDR") return undefined
  const size = sized(
    bytes,
    29,
    () => bytes.readUInt32BE(16),
    () => bytes.readUInt32BE(20),
  )
  if (size === undefined) return undefined
  return size.width > MAX_CHECKED_SIDE || size.height > MAX_CHECKED_SIDE || pngPixelsComplete(bytes, size)
    ? size
    : undefined
}

/** Larger images opencode shrinks: their pixels are not checked here. */
const MAX_CHECKED_SIDE = 2000

/** Channels per pixel of each PNG colour type. */
const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }

/** True when the IDAT chunks inflate to every row of a non-interlaced PNG (an interlaced one is not checked). */
function pngPixelsComplete(bytes: Buffer, size: ImageSize): boolean {
  const bitDepth = bytes[24]!
  const channels = PNG_CHANNELS[bytes[25]!]
  if (channels === undefined) return false
  if (bytes[28] !== 0) return true
  const expected = size.height * (1 + Math.ceil((size.width * channels * bitDepth) / 8))
  const data: Buffer[] = []
  for (let offset = 8; offset + 8 <= bytes.length; ) {
    const length = bytes.readUInt32BE(offset)
    if (bytes.toString("latin1", offset + 4, offset + 8) === "IDAT")
      data.push(bytes.subarray(offset + 8, offset + 8 + length))
    offset += 12 + length
  }
  try {
    return inflateSync(Buffer.concat(data), { maxOutputLength: expected + 1 }).length >= expected
  } catch (error) {
    // More data than the rows need still decodes.
    return (error as { code?: unknown }).code === "ERR_BUFFER_TOO_LARGE"
  }
}

/** The first start-of-frame marker's size, walking the JPEG's segments. */
function jpegSize(bytes: Buffer): ImageSize | undefined {
  let offset = 2
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return undefined
    const marker = bytes[offset + 1]!
    const length = bytes.readUInt16BE(offset + 2)
    const startOfFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc
    if (startOfFrame)
      return sized(
        bytes,
        offset + 9,
        () => bytes.readUInt16BE(offset + 7),
        () => bytes.readUInt16BE(offset + 5),
      )
    offset += 2 + length
  }
  return undefined
}

function webpSize(bytes: Buffer): ImageSize | undefined {
  const chunk = bytes.toString("latin1", 12, 16)
  if (chunk === "VP8X")
    return sized(
      bytes,
      30,
      () => 1 + bytes.readUIntLE(24, 3),
      () => 1 + bytes.readUIntLE(27, 3),
    )
  if (chunk === "VP8L" && bytes.length >= 25) {
    const bits = bytes.readUInt32LE(21)
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) }
  }
  if (chunk === "VP8 ")
    return sized(
      bytes,
      30,
      () => bytes.readUInt16LE(26) & 0x3fff,
      () => bytes.readUInt16LE(28) & 0x3fff,
    )
  return undefined
}
