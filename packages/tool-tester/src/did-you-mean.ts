// "Did you mean ...?" for names typed on the command line: commands, flags, tool names and
// provider short names. The distance is optimal string alignment (Levenshtein plus swapping two
// neighbours, so `lsit` is one step from `list`), and a match must be close for its length.
// create-tool's flags are suggested by the same rule: its copy is written from this file
// (scripts/shared-sources.mjs).

/** The candidate closest to `input`, or undefined when none is close enough to be what was meant. */
export function closestMatch(input: string, candidates: Iterable<string>): string | undefined {
  const typed = input.toLowerCase()
  let best: string | undefined
  let bestDistance = Number.POSITIVE_INFINITY
  for (const candidate of candidates) {
    const distance = editDistance(typed, candidate.toLowerCase())
    if (distance < bestDistance) {
      best = candidate
      bestDistance = distance
    }
  }
  return best !== undefined && bestDistance <= threshold(input, best) ? best : undefined
}

/** ` (did you mean "x"?)`-style text, or "" when there is no close match. */
export function didYouMean(
  input: string,
  candidates: Iterable<string>,
  format = (match: string) => `"${match}"`,
): string {
  const match = closestMatch(input, candidates)
  return match === undefined ? "" : `; did you mean ${format(match)}?`
}

/** Edits (insert, delete, replace, swap two neighbours) that turn `a` into `b`. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = []
  for (let i = 0; i <= a.length; i++) {
    rows.push([i])
    for (let j = 1; j <= b.length; j++) rows[i]![j] = i === 0 ? j : 0
  }
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let value = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, rows[i - 2]![j - 2]! + 1)
      rows[i]![j] = value
    }
  }
  return rows[a.length]![b.length]!
}

// --- internal ---

/**
 * One edit for short names, two from 6 characters, three from 12: close, but never a different word.
 * Two letters typed for a three-letter name is one left out (`rn` for `run`, `dv` for `dev`).
 */
function threshold(input: string, candidate: string): number {
  const length = Math.min(input.length, candidate.length)
  if (length < 3) return input.length === 2 && candidate.length === 3 ? 1 : 0
  return length < 6 ? 1 : length < 12 ? 2 : 3
}
