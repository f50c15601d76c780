import { mkdirSync, rmSync, writeFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, test } from "vitest"
import { leftoversLine, leftSince, tempSnapshot } from "../../scripts/temp-leftovers.mjs"
import { useTmpDir } from "../install/_run.ts"

describe("what the tests left in the temp folder", () => {
  test("only our names made during the run and still there count: not older ones, others' names or ones removed", () => {
    const temp = useTmpDir("temp-leftovers-")
    mkdirSync(path.join(temp, "tool-tester-old"))
    const before = tempSnapshot(temp)
    mkdirSync(path.join(temp, "tool-tester-verify-abc"))
    writeFileSync(path.join(temp, "create-tool-x"), "")
    mkdirSync(path.join(temp, "yarn--123-0"))
    mkdirSync(path.join(temp, "tool-tester-gone"))
    rmSync(path.join(temp, "tool-tester-gone"), { recursive: true })
    expect(leftSince(before, temp)).toEqual(["create-tool-x", "tool-tester-verify-abc"])
  })

  test("one line naming the first five and the count of the rest; nothing when nothing was left", () => {
    expect(leftoversLine([], "/t")).toBeUndefined()
    const line = leftoversLine(["a", "b", "c", "d", "e", "f", "g"], "/t")
    expect(line).toMatch(/^warning: the tests left 7 item\(s\) in \/t: a, b, c, d, e and 2 more\. /)
    expect(line).not.toContain("\n")
  })

  test("a temp folder that cannot be read has nothing of ours", () => {
    const missing = path.join(useTmpDir("temp-leftovers-"), "missing")
    expect(leftSince(new Set(), missing)).toEqual([])
  })
})
