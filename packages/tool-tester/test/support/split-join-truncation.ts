import type { TruncationLimits, TruncationPlan } from "../../src/pipeline/truncate.ts"

/**
 * The truncation rule exactly as docs/opencode-contract.md#truncation-rule states it: split
 * everything, walk the lines, join. The reference the fast plan is checked against
 * (test/truncate.test.ts) and timed against (bench/truncate.ts).
 */
export function splitJoinPlan(text: string, limits: TruncationLimits): TruncationPlan | null {
  const lines = text.split("\n")
  const totalBytes = bunByteLength(text)
  if (lines.length <= limits.maxLines && totalBytes <= limits.maxBytes) return null
  const kept: string[] = []
  let bytes = 0
  let hitBytes = false
  for (let index = 0; index < lines.length && index < limits.maxLines; index += 1) {
    const size = bunByteLength(lines[index]!) + (index > 0 ? 1 : 0)
    if (bytes + size > limits.maxBytes) {
      hitBytes = true
      break
    }
    kept.push(lines[index]!)
    bytes += size
  }
  return hitBytes
    ? { preview: kept.join("\n"), removed: totalBytes - bytes, unit: "bytes" }
    : { preview: kept.join("\n"), removed: lines.length - kept.length, unit: "lines" }
}

/**
 * What opencode measures a text with, Bun's `Buffer.byteLength`: its UTF-8 size, except that each
 * lone surrogate counts 2 bytes (observed on 1.18.34: the truncation golden, run `multibyte`). Node
 * counts 3, so each one is measured as a 2-byte character instead.
 */
function bunByteLength(text: string): number {
  return Buffer.byteLength(
    text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "é"),
    "utf8",
  )
}
