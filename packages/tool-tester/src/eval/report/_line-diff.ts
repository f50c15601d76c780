// A small line diff (longest common subsequence) for what the report shows of a changed tool: a
// description and a pretty-printed JSON Schema, tens of lines. Written here rather than adding a
// dependency: the `diff` package is not in the tree, and this is all the report needs of one.

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

/** Above this many cells the table would cost too much: the lines are shown as all removed, then all added. */
const MAX_CELLS = 4_000_000

function diffLines(before: string[], after: string[]): Operation[] {
  // Equal lines at both ends need no table.
  let start = 0
  while (start < before.length && start < after.length && before[start] === after[start]) start++
  let end = 0
  while (
    end < before.length - start &&
    end < after.length - start &&
    before[before.length - 1 - end] === after[after.length - 1 - end]
  )
    end++
  const head = before.slice(0, start).map((line): Operation => ({ kind: " ", line }))
  const tail = before.slice(before.length - end).map((line): Operation => ({ kind: " ", line }))
  const removed = before.slice(start, before.length - end)
  const added = after.slice(start, after.length - end)
  return [...head, ...middle(removed, added), ...tail]
}

function middle(before: string[], after: string[]): Operation[] {
  const rows = before.length
  const columns = after.length
  if (rows * columns > MAX_CELLS) {
    return [
      ...before.map((line): Operation => ({ kind: "-", line })),
      ...after.map((line): Operation => ({ kind: "+", line })),
    ]
  }
  // lengths[i][j]: the longest common subsequence of before[i..] and after[j..].
  const width = columns + 1
  const lengths = new Uint32Array((rows + 1) * width)
  for (let i = rows - 1; i >= 0; i--) {
    for (let j = columns - 1; j >= 0; j--) {
      lengths[i * width + j] =
        before[i] === after[j]
          ? (lengths[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(lengths[(i + 1) * width + j] ?? 0, lengths[i * width + j + 1] ?? 0)
    }
  }
  const operations: Operation[] = []
  let i = 0
  let j = 0
  while (i < rows && j < columns) {
    if (before[i] === after[j]) {
      operations.push({ kind: " ", line: before[i] ?? "" })
      i++
      j++
    } else if ((lengths[(i + 1) * width + j] ?? 0) >= (lengths[i * width + j + 1] ?? 0)) {
      operations.push({ kind: "-", line: before[i++] ?? "" })
    } else {
      operations.push({ kind: "+", line: after[j++] ?? "" })
    }
  }
  while (i < rows) operations.push({ kind: "-", line: before[i++] ?? "" })
  while (j < columns) operations.push({ kind: "+", line: after[j++] ?? "" })
  return operations
}
