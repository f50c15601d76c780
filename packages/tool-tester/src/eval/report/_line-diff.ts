// The line diff the report shows of a changed tool (a description, a pretty-printed JSON Schema):
// jsdiff's diffArrays (Myers' O(ND) diff) over the lines, shown with a few kept lines around each
// change. It replaced a hand-written LCS table that gave up above 4M cells (two texts of 2,000
// lines), showing every line as removed and added.
import { diffArrays } from "diff"

/** Lines of `before` and `after` compared: `- ` removed, `+ ` added, `  ` kept (kept lines only near a change). */
export function lineDiff(before: string, after: string, options: { context?: number } = {}): string[] {
  const context = options.context ?? 2
  const operations = diffLines(before.split("\n"), after.split("\n"))
  const near = new Array<boolean>(operations.length).fill(false)
  operations.forEach((operation, index) => {
    if (operation.kind === " ") return
    for (let other = Math.max(0, index - context); other <= Math.min(operations.length - 1, index + context); other++)
      near[other] = true
  })
  const lines: string[] = []
  let skipped = false
  operations.forEach((operation, index) => {
    if (!near[index]) {
      skipped = true
      return
    }
    if (skipped) lines.push("  …")
    skipped = false
    lines.push(`${operation.kind} ${operation.line}`)
  })
  if (skipped && lines.length > 0) lines.push("  …")
  return lines
}

// --- internal ---

interface Operation {
  kind: " " | "-" | "+"
  line: string
}

function diffLines(before: string[], after: string[]): Operation[] {
  return diffArrays(before, after).flatMap((change) => {
    const kind = change.added ? "+" : change.removed ? "-" : " "
    return change.value.map((line): Operation => ({ kind, line }))
  })
}
