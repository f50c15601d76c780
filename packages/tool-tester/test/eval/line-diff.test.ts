import { describe, expect, test } from "vitest"
import { lineDiff } from "../../src/eval/report/_line-diff.ts"

// What the eval report shows of a changed description or schema (compare.ts).
describe("the report's line diff", () => {
  test("a changed line is shown removed then added, with two kept lines around it and … for the rest", () => {
    const before = ["{", "  a", "  b", "  c", "  d", "  e", "  f", "}"].join("\n")
    const after = ["{", "  a", "  b", "  c", "  D", "  e", "  f", "}"].join("\n")
    expect(lineDiff(before, after)).toEqual(["  …", "    b", "    c", "-   d", "+   D", "    e", "    f", "  …"])
  })

  test("added and removed lines, and the context option", () => {
    expect(lineDiff("a\nb\nc", "a\nc\nd", { context: 0 })).toEqual(["  …", "- b", "  …", "+ d"])
    expect(lineDiff("same", "same")).toEqual([])
  })

  test("two long texts with a change in the middle are diffed line by line, not shown as all removed then all added", () => {
    // 2,500 lines each side: the old table (6.25M cells) gave up above 4M cells.
    const lines = Array.from({ length: 2_500 }, (_, index) => `line ${index}`)
    const changed = lines.map((line, index) => (index % 500 === 250 ? `${line} changed` : line))
    const diff = lineDiff(lines.join("\n"), changed.join("\n"), { context: 0 })
    expect(diff.filter((line) => line.startsWith("- "))).toHaveLength(5)
    expect(diff.filter((line) => line.startsWith("+ "))).toEqual(
      [250, 750, 1250, 1750, 2250].map((index) => `+ line ${index} changed`),
    )
  })
})
