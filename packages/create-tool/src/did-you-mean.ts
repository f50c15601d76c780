// The "did you mean" of a mistyped word: the closest of a few known names, if one is close enough to
// be what was meant.

/**
 * The name in `names` closest to `word`, ignoring case, or undefined when none is within one edit
 * (for words of up to four characters) or two (longer ones). An edit is a character added, removed,
 * replaced, or two neighbours swapped, so `tempalte` finds `template` and `rf` finds nothing.
 */
export function closestName(word: string, names: readonly string[]): string | undefined {
  const typed = word.toLowerCase()
  if (typed === "") return undefined
  const limit = typed.length <= 4 ? 1 : 2
  let best: { name: string; distance: number } | undefined
  for (const name of names) {
    const distance = editDistance(typed, name.toLowerCase())
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { name, distance }
  }
  return best?.name
}

// --- internal ---

/** Optimal string alignment distance: Levenshtein plus the swap of two neighbouring characters. */
function editDistance(left: string, right: string): number {
  const rows: number[][] = []
  for (let i = 0; i <= left.length; i++) {
    rows.push([i])
    for (let j = 1; j <= right.length; j++) rows[i]![j] = i === 0 ? j : 0
  }
  for (let i = 1; i <= left.length; i++) {
    for (let j = 1; j <= right.length; j++) {
      const cost = left[i - 1] === right[j - 1] ? 0 : 1
      let distance = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && left[i - 1] === right[j - 2] && left[i - 2] === right[j - 1]) {
        distance = Math.min(distance, rows[i - 2]![j - 2]! + 1)
      }
      rows[i]![j] = distance
    }
  }
  return rows[left.length]![right.length]!
}
