// What the inspector keeps of a call in memory and sends to the page: at most ENTRY_BUDGET
// characters of its values (arguments, output, metadata), the rest cut with a marker. A call with a
// 100 MB argument must not stay 100 MB in the history, nor be sent again to every page that
// connects; its whole text is kept on disk, behind a link (GET /api/history/<id>/full).

/**
 * Characters of one history entry's strings, keys and values kept: an output opencode passes on
 * whole (51200 bytes by default) fits, with room for the arguments. The history holds 100 entries.
 */
export const ENTRY_BUDGET = 128 * 1024

/** Deeper than this, a value is cut (the page could not show it anyway). */
const MAX_DEPTH = 32

/** Marks where a value was cut. */
const CUT = "[cut: the whole call is behind its link]"

/** `value` with at most `budget.left` characters of content, and whether anything was cut. */
export function boundValue(value: unknown, budget: { left: number; cut: boolean }, depth = 0): unknown {
  if (typeof value === "string") {
    if (value.length <= budget.left) {
      budget.left -= value.length
      return value
    }
    const kept = value.slice(0, Math.max(0, budget.left))
    budget.left = 0
    budget.cut = true
    return `${kept}… [cut: ${value.length - kept.length} more characters]`
  }
  if (typeof value !== "object" || value === null) {
    budget.left -= 8
    return value
  }
  if (depth >= MAX_DEPTH || budget.left <= 0) {
    budget.cut = true
    return CUT
  }
  if (Array.isArray(value)) {
    const kept: unknown[] = []
    for (const item of value) {
      if (budget.left <= 0) {
        budget.cut = true
        kept.push(CUT)
        break
      }
      kept.push(boundValue(item, budget, depth + 1))
    }
    return kept
  }
  const kept: Record<string, unknown> = {}
  for (const [key, item] of Object.entries(value)) {
    if (budget.left <= 0) {
      budget.cut = true
      kept[CUT] = true
      break
    }
    budget.left -= key.length
    kept[key] = boundValue(item, budget, depth + 1)
  }
  return kept
}
