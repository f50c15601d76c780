// opencode's output truncation for custom tools (docs/opencode-contract.md#truncation-rule, checked
// against the binary): keep whole lines from the head while both the line count and the UTF-8 byte
// budget allow, save the full text to `tool_<id>` and tell the model where it is.
//
// The plan never splits the whole text. It walks only the lines it may keep (at most maxBytes
// chars), then either takes the byte length of the whole text (byte limit hit) or counts the
// remaining newlines with indexOf (line limit hit). On 100 MB that is one native pass instead of
// millions of line strings; `bench/truncate.ts` measures it against the split/join rule.

import path from "node:path"
import { described } from "../_described.ts"
import { isRecord } from "../_is-record.ts"
import { refuseUnknownOptions } from "../_known-options.ts"
import { ToolTesterError } from "../errors.ts"
import { inBun } from "../runtime/here.ts"
import { ascendingId } from "./ascending-id.ts"
import { securePrivateParent } from "./data-directory.ts"

export interface TruncationLimits {
  /** Most lines (elements of `text.split("\n")`) kept untouched; inclusive. */
  maxLines: number
  /** Most UTF-8 bytes kept untouched; inclusive. */
  maxBytes: number
}

/** opencode's defaults, used unless config `tool_output.max_lines` / `max_bytes` say otherwise. */
export const defaultTruncationLimits: Readonly<TruncationLimits> = Object.freeze({ maxLines: 2000, maxBytes: 51200 })

export interface TruncationPlan {
  /** The kept head lines joined by `\n` (empty when the first line alone is over the budget). */
  preview: string
  /** Lines or bytes left out, as opencode counts them. */
  removed: number
  /** `bytes` whenever the byte budget stopped the walk, even if the line limit would have too. */
  unit: "lines" | "bytes"
}

export interface TruncateOptions {
  maxLines?: number
  maxBytes?: number
  /** Whether the agent may use the task tool; picks which hint the model reads. */
  hasTaskTool: boolean
  /** Folder for the full output, opencode's `<data>/tool-output`; created if missing. */
  outputDir: string
}

export type TruncateResult =
  | { content: string; truncated: false; outputPath?: undefined }
  | { content: string; truncated: true; outputPath: string }

/**
 * The pure part of truncation: what to keep and what to report, or null when `text` is within
 * both limits. No I/O; the preview is a fresh copy, so it does not keep a huge `text` alive.
 */
export function planTruncation(
  text: string,
  limits: TruncationLimits = defaultTruncationLimits,
): TruncationPlan | null {
  const { maxLines, maxBytes } = limits
  // A UTF-16 code unit never takes fewer than one UTF-8 byte, so a long text is over for sure.
  let totalBytes = text.length > maxBytes ? undefined : countedBytes(text)
  if (totalBytes !== undefined && totalBytes <= maxBytes && !hasMoreLinesThan(text, maxLines)) return null

  const walk =
    runtimeByteLength !== undefined && !isWellFormed(text)
      ? walkHeadMeasured(text, maxLines, maxBytes, runtimeByteLength)
      : walkHead(text, maxLines, maxBytes)
  const preview = copyString(text.slice(0, walk.previewEnd))
  if (walk.hitBytes) {
    totalBytes ??= countedBytes(text)
    return { preview, removed: totalBytes - walk.keptBytes, unit: "bytes" }
  }
  // The line limit stopped the walk at the newline after the last kept line (or at the start).
  const uncounted = walk.keptLines === 0 ? 0 : walk.previewEnd + 1
  const totalLines = walk.keptLines + 1 + countNewlines(text, uncounted)
  return { preview, removed: totalLines - walk.keptLines, unit: "lines" }
}

/** Builds the text the model sees for a truncated output (head direction). */
function formatTruncatedContent(plan: TruncationPlan, outputPath: string, hasTaskTool: boolean): string {
  return `${plan.preview}\n\n...${plan.removed} ${plan.unit} truncated...\n\n${hint(outputPath, hasTaskTool)}`
}

/**
 * opencode's `Truncate.output` for custom tools: returns `text` untouched when it is within the
 * limits, otherwise saves the full text to `outputDir/tool_<ascending id>` (no extension,
 * written to a temporary file then renamed) and returns the preview with the hint. Throws a
 * `USAGE` ToolTesterError when the file cannot be saved there.
 */
export async function truncateOutput(text: string, options: TruncateOptions): Promise<TruncateResult> {
  checkTruncateArguments(text, options)
  const plan = planTruncation(text, {
    maxLines: options.maxLines ?? defaultTruncationLimits.maxLines,
    maxBytes: options.maxBytes ?? defaultTruncationLimits.maxBytes,
  })
  if (plan === null) return { content: text, truncated: false }
  const outputPath = path.resolve(options.outputDir, ascendingId("tool"))
  // The default data folder is the user's own: made private first, or refused (TEMP_FOLDER_UNSAFE, thrown as it is).
  securePrivateParent(outputPath)
  try {
    await writeAtomically(outputPath, text)
  } catch (error) {
    // opencode dies here (its write is `orDie`); tool-tester's data folder is the caller's choice.
    const reason = error instanceof Error ? error.message : String(error)
    throw new ToolTesterError(
      "USAGE",
      `cannot save the full output of a truncated call in ${path.dirname(outputPath)} (${reason}): use a data folder you can write to (run --data-dir, or the dataDirectory option)`,
      { data: { outputDir: path.dirname(outputPath) }, cause: error },
    )
  }
  return { content: formatTruncatedContent(plan, outputPath, options.hasTaskTool), truncated: true, outputPath }
}

// --- internal ---

const TRUNCATE_OPTIONS = { maxLines: true, maxBytes: true, hasTaskTool: true, outputDir: true } as const

/** truncateOutput is public: what it cannot use is USAGE naming it, not a TypeError from inside. */
function checkTruncateArguments(text: unknown, options: unknown): void {
  const usage = (message: string, option: string) => new ToolTesterError("USAGE", message, { data: { option } })
  if (typeof text !== "string") throw usage(`truncateOutput's text must be a string, not ${described(text)}`, "text")
  if (!isRecord(options))
    throw usage(
      `truncateOutput's options must be an object such as { hasTaskTool: false, outputDir }, not ${described(options)}`,
      "options",
    )
  refuseUnknownOptions("truncateOutput", options, TRUNCATE_OPTIONS)
  if (typeof options["outputDir"] !== "string")
    throw usage(
      `outputDir must be the folder path for the full output, not ${described(options["outputDir"])}`,
      "outputDir",
    )
  if (typeof options["hasTaskTool"] !== "boolean")
    throw usage(`hasTaskTool must be true or false, not ${described(options["hasTaskTool"])}`, "hasTaskTool")
  for (const option of ["maxLines", "maxBytes"]) {
    const value = options[option]
    if (value !== undefined && (!Number.isInteger(value) || (value as number) < 1))
      throw usage(`${option} must be a whole number above 0, not ${described(value)}`, option)
  }
}

interface HeadWalk {
  keptLines: number
  keptBytes: number
  /** Index in `text` just past the last kept line (0 when nothing is kept). */
  previewEnd: number
  hitBytes: boolean
}

/**
 * The head walk of docs/opencode-contract.md#truncation-rule, reading each line only as far as the
 * remaining byte budget.
 */
function walkHead(text: string, maxLines: number, maxBytes: number): HeadWalk {
  const length = text.length
  let keptLines = 0
  let keptBytes = 0
  let previewEnd = 0
  let lineStart = 0
  while (keptLines < maxLines) {
    const budget = maxBytes - keptBytes
    let size = keptLines > 0 ? 1 : 0
    let index = lineStart
    while (size <= budget && index < length) {
      const code = text.charCodeAt(index)
      if (code === newline) break
      if (code < 0x80) size += 1
      else if (code < 0x800) size += 2
      else if (isHighSurrogate(code) && isLowSurrogate(text.charCodeAt(index + 1))) {
        size += 4
        index += 1
      } else size += isSurrogate(code) ? 2 : 3 // a lone surrogate counts 2, as in countedBytes
      index += 1
    }
    if (size > budget) return { keptLines, keptBytes, previewEnd, hitBytes: true }
    keptLines += 1
    keptBytes += size
    previewEnd = index
    if (index >= length) break
    lineStart = index + 1
  }
  return { keptLines, keptBytes, previewEnd, hitBytes: false }
}

/**
 * The head walk for text with a lone surrogate, in Bun: each whole line measured by Bun's own
 * `Buffer.byteLength`, as opencode measures it, since Bun's count of a lone surrogate depends on
 * the line's length and on the CPU (countedBytes).
 */
function walkHeadMeasured(
  text: string,
  maxLines: number,
  maxBytes: number,
  byteLength: (text: string) => number,
): HeadWalk {
  let keptLines = 0
  let keptBytes = 0
  let previewEnd = 0
  let lineStart = 0
  while (keptLines < maxLines) {
    const newlineAt = text.indexOf("\n", lineStart)
    const lineEnd = newlineAt === -1 ? text.length : newlineAt
    const size = byteLength(text.slice(lineStart, lineEnd)) + (keptLines > 0 ? 1 : 0)
    if (size > maxBytes - keptBytes) return { keptLines, keptBytes, previewEnd, hitBytes: true }
    keptLines += 1
    keptBytes += size
    previewEnd = lineEnd
    if (newlineAt === -1) break
    lineStart = newlineAt + 1
  }
  return { keptLines, keptBytes, previewEnd, hitBytes: false }
}

const newline = 10

/**
 * Bun's `Buffer.byteLength` when this runs in Bun (the bun engine, opencode's own runtime), taken
 * before any tool is loaded: the count opencode makes on this machine, whatever the CPU.
 */
const runtimeByteLength: ((text: string) => number) | undefined = inBun ? Buffer.byteLength.bind(Buffer) : undefined

/**
 * The size opencode gives `text`: Bun's `Buffer.byteLength`, the UTF-8 size except for a lone
 * surrogate (UTF-8 writes it as the 3 bytes of U+FFFD, and so does the saved file), which Bun's
 * simdutf counts 2 bytes, or 3 in a string of at most 32 UTF-16 units on a CPU with AVX-512 (its
 * icelake kernel measures short strings with the replacement). Observed on 1.18.34 (the truncation
 * golden, run `multibyte`): 25600 lone surrogates on one line are not truncated, 25601 are
 * (`...51202 bytes truncated...`). In Bun, its own count; in Node, which counts 3, a lone surrogate
 * is measured as a 2-byte character, as Bun counts it on most CPUs.
 */
function countedBytes(text: string): number {
  if (runtimeByteLength !== undefined) return runtimeByteLength(text)
  return Buffer.byteLength(isWellFormed(text) ? text : text.replace(loneSurrogate, "\u00e9"), "utf8")
}

function isWellFormed(text: string): boolean {
  return (text as unknown as { isWellFormed(): boolean }).isWellFormed()
}

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

function isSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdfff
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff
}

function hasMoreLinesThan(text: string, maxLines: number): boolean {
  let lines = 1
  let index = text.indexOf("\n")
  while (index !== -1 && lines <= maxLines) {
    lines += 1
    index = text.indexOf("\n", index + 1)
  }
  return lines > maxLines
}

function countNewlines(text: string, from: number): number {
  let count = 0
  let index = text.indexOf("\n", from)
  while (index !== -1) {
    count += 1
    index = text.indexOf("\n", index + 1)
  }
  return count
}

/**
 * `slice` makes a view that keeps its whole parent alive. Concatenating and slicing again makes V8
 * flatten into a new string that owns only the preview, so a 100 MB output can be collected.
 */
function copyString(view: string): string {
  return `${view}\n`.slice(0, -1)
}

function hint(outputPath: string, hasTaskTool: boolean): string {
  const saved = `The tool call succeeded but the output was truncated. Full output saved to: ${outputPath}\n`
  return hasTaskTool
    ? `${saved}Use the Task tool to have explore agent process this file with Grep and Read (with offset/limit). Do NOT read the full file yourself - delegate to save context.`
    : `${saved}Use Grep to search the full content or Read with offset/limit to view specific sections.`
}

/** Chars per write: small enough to keep the encoded buffer small, large enough to be quick. */
const writeChunkLength = 1 << 20

/**
 * Writes `text` as UTF-8, byte for byte what `Buffer.from(text)` holds (lone surrogates as U+FFFD,
 * as opencode's write of the string encodes them, in Bun as in Node), to a `.tmp` sibling, flushes
 * it, then renames it into place, so the final name never holds half a file. The temporary name
 * starts with `tool_` too, so a file left by a crash is swept by opencode's 7-day cleanup.
 */
async function writeAtomically(finalPath: string, text: string): Promise<void> {
  // Loaded here: most runs truncate nothing, and a worker pays ~1 ms to load node:fs/promises.
  const { mkdir, open, rename, rm } = await import("node:fs/promises")
  // Private, as opencode's data folder is the user's own: a saved output can hold anything the tool saw.
  await mkdir(path.dirname(finalPath), { recursive: true, mode: 0o700 })
  const temporaryPath = `${finalPath}.tmp`
  const handle = await open(temporaryPath, "wx", 0o600)
  try {
    try {
      for (let start = 0; start < text.length; ) {
        let end = Math.min(start + writeChunkLength, text.length)
        // Never cut a surrogate pair in two: each half alone would be written as U+FFFD. Only a
        // high surrogate just before the cut and a low one just after it are a pair; a lone low
        // surrogate after the cut is U+FFFD either way, and moving the cut back would split the
        // pair before it.
        if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1)) && isLowSurrogate(text.charCodeAt(end)))
          end -= 1
        const bytes = Buffer.from(text.slice(start, end), "utf8")
        for (let written = 0; written < bytes.length; ) {
          written += (await handle.write(bytes, written, bytes.length - written)).bytesWritten
        }
        start = end
      }
      await handle.datasync()
    } finally {
      await handle.close()
    }
    await rename(temporaryPath, finalPath)
  } catch (error) {
    await rm(temporaryPath, { force: true })
    throw error
  }
}
