import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises"
import os from "node:os"
import path from "node:path"
import { describe, expect, onTestFinished, test, vi } from "vitest"
import { ascendingId } from "../src/pipeline/ascending-id.ts"
import { defaultTruncationLimits, planTruncation, truncateOutput } from "../src/pipeline/truncate.ts"
import { splitJoinPlan } from "./support/split-join-truncation.ts"

const savedName = /^tool_[0-9a-f]{12}[0-9A-Za-z]{14}$/
const taskHint =
  "Use the Task tool to have explore agent process this file with Grep and Read (with offset/limit). Do NOT read the full file yourself - delegate to save context."
const grepHint = "Use Grep to search the full content or Read with offset/limit to view specific sections."

describe("truncateOutput", () => {
  test("leaves exactly 2000 lines untouched", async () => {
    const text = numberedLines(2000)
    expect(await truncateOutput(text, { hasTaskTool: true, outputDir: await useTmpDir() })).toEqual({
      content: text,
      truncated: false,
    })
  })

  test("leaves exactly 51200 bytes untouched", async () => {
    const text = "a".repeat(51200)
    const result = await truncateOutput(text, { hasTaskTool: true, outputDir: await useTmpDir() })
    expect(result).toEqual({ content: text, truncated: false })
    // Read as the docs write it, without narrowing first: undefined when nothing was cut.
    expect((await truncateOutput(text, { hasTaskTool: true, outputDir: await useTmpDir() })).outputPath).toBeUndefined()
  })

  test("leaves the empty string untouched and writes no file", async () => {
    const outputDir = await useTmpDir()
    expect(await truncateOutput("", { hasTaskTool: true, outputDir })).toEqual({ content: "", truncated: false })
    expect(await readdir(outputDir)).toEqual([])
  })

  test("counts a trailing newline after 2000 lines as one more line", async () => {
    const text = `${numberedLines(2000)}\n`
    const result = await truncateOutput(text, { hasTaskTool: true, outputDir: await useTmpDir() })
    expect(result.content.startsWith(`${numberedLines(2000)}\n\n...1 lines truncated...\n\n`)).toBe(true)
  })

  test("cuts 3000 lines to 2000 and saves all 28892 bytes, with the task hint", async () => {
    const outputDir = await useTmpDir()
    const text = numberedLines(3000)
    const result = await truncateOutput(text, { hasTaskTool: true, outputDir })
    if (!result.truncated) throw new Error("expected a truncated result")
    expect(result.content).toBe(
      `${numberedLines(2000)}\n\n...1000 lines truncated...\n\n` +
        `The tool call succeeded but the output was truncated. Full output saved to: ${result.outputPath}\n${taskHint}`,
    )
    expect((await readFile(result.outputPath)).byteLength).toBe(28892)
  })

  test("uses the grep hint when the agent cannot use the task tool", async () => {
    const result = await truncateOutput(numberedLines(3000), { hasTaskTool: false, outputDir: await useTmpDir() })
    if (!result.truncated) throw new Error("expected a truncated result")
    expect(
      result.content.endsWith(`\n\n...1000 lines truncated...\n\n${savedHint(result.outputPath)}${grepHint}`),
    ).toBe(true)
  })

  test("cuts 2001 lines by one line", async () => {
    const result = await truncateOutput(numberedLines(2001), { hasTaskTool: true, outputDir: await useTmpDir() })
    expect(result.content.startsWith(`${numberedLines(2000)}\n\n...1 lines truncated...\n\n`)).toBe(true)
  })

  test("keeps nothing of a single 61440-byte line", async () => {
    const result = await truncateOutput("x".repeat(61440), { hasTaskTool: true, outputDir: await useTmpDir() })
    expect(result.content.startsWith("\n\n...61440 bytes truncated...\n\n")).toBe(true)
  })

  test("keeps nothing of a single 51201-byte line", async () => {
    const result = await truncateOutput("x".repeat(51201), { hasTaskTool: false, outputDir: await useTmpDir() })
    if (!result.truncated) throw new Error("expected a truncated result")
    expect(result.content).toBe(`\n\n...51201 bytes truncated...\n\n${savedHint(result.outputPath)}${grepHint}`)
  })

  test("keeps 506 of 1000 lines of 100 chars, stopped by the byte budget", async () => {
    const lines = Array.from({ length: 1000 }, (_, index) => String(index).padEnd(100, "."))
    const result = await truncateOutput(lines.join("\n"), { hasTaskTool: true, outputDir: await useTmpDir() })
    expect(result.content.startsWith(`${lines.slice(0, 506).join("\n")}\n\n...49894 bytes truncated...\n\n`)).toBe(true)
  })

  test("counts multi-byte chars in bytes: 2 lines of 20000 euro signs", async () => {
    const line = "€".repeat(20000)
    const result = await truncateOutput(`${line}\n${line}`, { hasTaskTool: true, outputDir: await useTmpDir() })
    expect(result.content.startsWith("\n\n...120001 bytes truncated...\n\n")).toBe(true)
  })

  // Observed on opencode 1.18.34 (the truncation golden, run `multibyte`): opencode measures with
  // Bun's Buffer.byteLength, which counts a lone surrogate 2 bytes, while the file gets U+FFFD's 3.
  test.each([
    ["25600 lone surrogates (51200 bytes as opencode counts) are left alone", "\ud83c".repeat(25600), null],
    ["25601 lone surrogates lose all 51202 bytes", "\ud83c".repeat(25601), { keptLines: 0, removed: "51202 bytes" }],
    [
      "two lines of 13000 lone surrogates keep one",
      `${"\ud83c".repeat(13000)}\n${"\ud83c".repeat(13000)}`,
      { keptLines: 1, removed: "26001 bytes" },
    ],
    [
      "2001 lines of 9 lone low surrogates lose one line",
      Array.from({ length: 2001 }, () => "\udc00".repeat(9)).join("\n"),
      { keptLines: 2000, removed: "1 lines" },
    ],
  ])("counts a lone surrogate as 2 bytes: %s", async (_case, text, expected) => {
    const result = await truncateOutput(text, { hasTaskTool: true, outputDir: await useTmpDir() })
    if (expected === null) {
      expect(result).toEqual({ content: text, truncated: false })
      return
    }
    if (!result.truncated) throw new Error("expected a truncated result")
    const kept = text.split("\n").slice(0, expected.keptLines).join("\n")
    expect(result.content.startsWith(`${kept}\n\n...${expected.removed} truncated...\n\n`)).toBe(true)
    expect((await readFile(result.outputPath)).equals(Buffer.from(text))).toBe(true)
  })

  test("honours custom line and byte limits, both inclusive", async () => {
    const outputDir = await useTmpDir()
    const text = "ab\ncd\nef"
    expect((await truncateOutput(text, { maxLines: 3, maxBytes: 8, hasTaskTool: true, outputDir })).truncated).toBe(
      false,
    )
    const byLines = await truncateOutput(text, { maxLines: 2, hasTaskTool: true, outputDir })
    expect(byLines.content.startsWith("ab\ncd\n\n...1 lines truncated...\n\n")).toBe(true)
    const byBytes = await truncateOutput(text, { maxBytes: 7, hasTaskTool: true, outputDir })
    expect(byBytes.content.startsWith("ab\ncd\n\n...3 bytes truncated...\n\n")).toBe(true)
  })

  test("names the byte limit when both limits would cut", () => {
    expect(planTruncation("aaaa\nbbbb\ncccc", { maxLines: 1, maxBytes: 3 })).toEqual({
      preview: "",
      removed: 14,
      unit: "bytes",
    })
  })

  test("saves the full output byte for byte under a tool_ id, creating the folder", async () => {
    const outputDir = path.join(await useTmpDir(), "nested", "tool-output")
    // An emoji straddles the 1 MiB write chunk boundary, and lone surrogates become U+FFFD.
    const text = `${"a".repeat((1 << 20) - 1)}😀\n€ é \ud800 \udc00\n${numberedLines(3000)}\n`
    const result = await truncateOutput(text, { hasTaskTool: true, outputDir })
    if (!result.truncated) throw new Error("expected a truncated result")
    expect(path.dirname(result.outputPath)).toBe(path.resolve(outputDir))
    expect(path.basename(result.outputPath)).toMatch(savedName)
    expect((await readFile(result.outputPath)).equals(Buffer.from(text, "utf8"))).toBe(true)
    expect(await readdir(outputDir)).toEqual([path.basename(result.outputPath)])
  })

  test.each([
    ["a surrogate pair across the 1 MiB write boundary", `${"a".repeat((1 << 20) - 1)}😀\n${numberedLines(3000)}`],
    ["a lone low surrogate right after the boundary, a pair before it", `${"a".repeat((1 << 20) - 2)}😀\udc00 tail`],
    ["a lone high surrogate right before the boundary", `${"a".repeat((1 << 20) - 1)}\ud800x tail`],
    ["a lone low surrogate right at the boundary", `${"a".repeat(1 << 20)}\udc00 tail`],
    ["a pair right after the boundary", `${"a".repeat(1 << 20)}😀 tail`],
  ])("saves exactly Buffer.from(text) with %s", async (_case, text) => {
    const result = await truncateOutput(text, { hasTaskTool: true, outputDir: await useTmpDir() })
    if (!result.truncated) throw new Error("expected a truncated result")
    expect((await readFile(result.outputPath)).equals(Buffer.from(text))).toBe(true)
  })

  test("rejects when the output folder cannot be created, leaving nothing behind", async () => {
    const directory = await useTmpDir()
    const blocker = path.join(directory, "not-a-folder")
    await writeFile(blocker, "")
    const outputDir = path.join(blocker, "tool-output")
    await expect(truncateOutput("x".repeat(51201), { hasTaskTool: true, outputDir })).rejects.toMatchObject({
      code: "USAGE",
      message: expect.stringMatching(
        /^cannot save the full output of a truncated call in .*\/not-a-folder\/tool-output \(ENOTDIR: .*\): use a data folder you can write to \(run --data-dir, or the dataDirectory option\)$/,
      ),
    })
    expect(await readdir(directory)).toEqual(["not-a-folder"])
  })

  test("returns an absolute path even for a relative output folder", async () => {
    const outputDir = path.relative(process.cwd(), await useTmpDir())
    const result = await truncateOutput("x".repeat(51201), { hasTaskTool: true, outputDir })
    if (!result.truncated) throw new Error("expected a truncated result")
    expect(path.isAbsolute(result.outputPath)).toBe(true)
  })
})

describe("planTruncation", () => {
  test("uses opencode's default limits", () => {
    expect(defaultTruncationLimits).toEqual({ maxLines: 2000, maxBytes: 51200 })
    expect(planTruncation(numberedLines(2000))).toBeNull()
    expect(planTruncation(numberedLines(2001))).toEqual({ preview: numberedLines(2000), removed: 1, unit: "lines" })
  })

  test("matches the split and join rule on many random inputs", () => {
    const random = seededRandom(0x5eed)
    const pieces = ["a", "bc", "\n", "\n", "\n\n", "é", "€", "😀", "\ud800", "\udc00", " ", "xyz"]
    for (let run = 0; run < 20000; run += 1) {
      const pieceCount = Math.floor(random() * 40)
      let text = ""
      for (let index = 0; index < pieceCount; index += 1) text += pieces[Math.floor(random() * pieces.length)]
      const limits = { maxLines: Math.floor(random() * 8), maxBytes: Math.floor(random() * 40) }
      expect(planTruncation(text, limits), JSON.stringify({ text, limits })).toEqual(splitJoinPlan(text, limits))
    }
  })

  test("matches the split and join rule on large inputs with the default limits", () => {
    const random = seededRandom(0xb16)
    const words = ["word", "€uro", "😀", "", "a longer stretch of plain ascii text"]
    for (let run = 0; run < 40; run += 1) {
      const lines = Array.from({ length: 500 + Math.floor(random() * 3000) }, () => {
        let line = ""
        const wordCount = Math.floor(random() * random() * 12)
        for (let index = 0; index < wordCount; index += 1) line += words[Math.floor(random() * words.length)]
        return line
      })
      const text = lines.join("\n") + (random() < 0.5 ? "\n" : "")
      expect(planTruncation(text)).toEqual(splitJoinPlan(text, defaultTruncationLimits))
    }
  })
})

describe("ascendingId", () => {
  test("has the prefix, 12 hex chars of time and 14 base62 chars", () => {
    expect(ascendingId("tool")).toMatch(savedName)
    expect(ascendingId("prt")).toMatch(/^prt_[0-9a-f]{12}[0-9A-Za-z]{14}$/)
  })

  test("sorts ids in creation order, even within one millisecond", () => {
    const ids = Array.from({ length: 500 }, () => ascendingId("tool").slice(0, 17))
    expect([...ids].sort()).toEqual(ids)
    expect(new Set(ids).size).toBe(ids.length)
  })

  test("encodes the current time in the hex part", () => {
    const before = Date.now()
    const hex = ascendingId("tool").slice(5, 17)
    const after = Date.now()
    const millisecond = Number(BigInt(`0x${hex}`) >> 12n)
    const low36Bits = 2 ** 36
    expect(millisecond).toBeGreaterThanOrEqual(before % low36Bits)
    expect(millisecond).toBeLessThanOrEqual(after % low36Bits)
  })

  test("the hex part is the millisecond's low 36 bits, then a 12-bit count within it, exactly", () => {
    // A millisecond above 2^36, whose high bits the id drops, and a count past 12 bits, which
    // carries into the millisecond's bits as opencode's BigInt arithmetic does.
    const millisecond = 2 ** 41 + 2 ** 36 - 1
    vi.spyOn(Date, "now").mockReturnValue(millisecond)
    try {
      const hexes = Array.from({ length: 4097 }, () => ascendingId("msg").slice(4, 16))
      const stamp = (count: number) =>
        ((BigInt(millisecond) * 0x1000n + BigInt(count)) & 0xffffffffffffn).toString(16).padStart(12, "0")
      expect(hexes[0]).toBe("fffffffff001")
      expect(hexes[4094]).toBe("ffffffffffff")
      expect(hexes[4095]).toBe("000000000000")
      expect(hexes[4096]).toBe("000000000001")
      expect(hexes).toEqual(hexes.map((_, index) => stamp(index + 1)))
    } finally {
      vi.restoreAllMocks()
    }
  })
})

// --- internal ---

async function useTmpDir(): Promise<string> {
  const directory = await mkdtemp(path.join(os.tmpdir(), "tool-tester-truncate-"))
  onTestFinished(() => rm(directory, { recursive: true, force: true }))
  return directory
}

/** `line 1` to `line <count>` joined by `\n`, the shape of the outputs observed on opencode. */
function numberedLines(count: number): string {
  return Array.from({ length: count }, (_, index) => `line ${index + 1}`).join("\n")
}

function savedHint(outputPath: string): string {
  return `The tool call succeeded but the output was truncated. Full output saved to: ${outputPath}\n`
}

/** mulberry32: a small seeded generator, so a failing input can be replayed. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let value = state
    value = Math.imul(value ^ (value >>> 15), value | 1)
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61)
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296
  }
}
