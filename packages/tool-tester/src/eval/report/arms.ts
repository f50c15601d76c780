// The arms of an eval beside the normal run, compared per case and model: variants (the same cases
// on other descriptions) with their intervals and which one wins, and `--without` runs (a tool
// removed from what the model is offered) with what the model did instead and the difference.

import type { EvalResult, GradedTrial, PassCount } from "../types.ts"
import { CURRENT_VARIANT } from "../variants.ts"
import { intervalsApart } from "./statistics.ts"
import { passCount } from "./summarize.ts"

/** The prefix of a `--without` arm's name: `without weather`. */
export const WITHOUT_PREFIX = "without "

interface VariantComparison {
  case: string
  model: string
  /** `current` first, then each variant. */
  variants: Array<{ variant: string } & PassCount>
  /** The variant whose interval lies above every other's; absent while the intervals overlap. */
  winner?: string
}

interface WithoutComparison {
  case: string
  model: string
  /** The tool removed. */
  tool: string
  with: PassCount
  without: PassCount
  /** Pass rate without minus with, in percentage points. */
  difference: number
  /** What the model did in the runs without the tool, most frequent first. */
  instead: Array<{ what: string; count: number }>
}

export interface ArmComparisons {
  variants: VariantComparison[]
  without: WithoutComparison[]
}

/** The normal run's results (no arm). */
export function normalResults(results: EvalResult[]): EvalResult[] {
  return results.filter((result) => result.arm === undefined)
}

export function compareArms(results: EvalResult[]): ArmComparisons {
  const variants: VariantComparison[] = []
  const without: WithoutComparison[] = []
  for (const base of normalResults(results)) {
    const others = results.filter(
      (result) => result.arm !== undefined && result.case === base.case && result.model === base.model,
    )
    const variantResults = others.filter((result) => !result.arm?.startsWith(WITHOUT_PREFIX))
    if (variantResults.length > 0) {
      const rows = [base, ...variantResults].map((result) => ({
        variant: result.arm ?? CURRENT_VARIANT,
        ...passCount([result]),
      }))
      const winner = rows.find((row) =>
        rows.every(
          (other) =>
            other === row || (row.interval.low > other.interval.high && intervalsApart(row.interval, other.interval)),
        ),
      )
      // (above every other interval: apart from each, and the higher one)
      variants.push({
        case: base.case,
        model: base.model,
        variants: rows,
        ...(winner ? { winner: winner.variant } : {}),
      })
    }
    for (const result of others.filter((other) => other.arm?.startsWith(WITHOUT_PREFIX))) {
      const withCount = passCount([base])
      const withoutCount = passCount([result])
      const rate = (count: PassCount) => (count.runs === 0 ? 0 : count.passed / count.runs)
      without.push({
        case: base.case,
        model: base.model,
        tool: (result.arm ?? "").slice(WITHOUT_PREFIX.length),
        with: withCount,
        without: withoutCount,
        difference: Math.round((rate(withoutCount) - rate(withCount)) * 100),
        instead: instead(result.trials),
      })
    }
  }
  return { variants, without }
}

/** `called bash`, `answered in text`, `called webfetch, read`: what each trial's first turn did. */
function whatItDid(trial: GradedTrial): string {
  if (trial.error !== undefined) return `ended with ${trial.error.code}`
  const calls = trial.turns[0]?.calls ?? []
  if (calls.length === 0) return "answered in text"
  const names = [
    ...new Set(
      calls.map((call) => {
        const target = (call.args as { tool?: unknown } | null)?.tool
        return call.tool === "invalid" && typeof target === "string" ? `${target} (unavailable)` : call.tool
      }),
    ),
  ]
  return `called ${names.join(", ")}`
}

// --- internal ---

function instead(trials: GradedTrial[]): Array<{ what: string; count: number }> {
  const counts = new Map<string, number>()
  for (const trial of trials) counts.set(whatItDid(trial), (counts.get(whatItDid(trial)) ?? 0) + 1)
  return [...counts].map(([what, count]) => ({ what, count })).sort((a, b) => b.count - a.count)
}

/** The arms' comparisons as report lines (terminal and HTML share them): one per case x model and arm. */
export function armLines(comparisons: ArmComparisons): { variants: string[]; without: string[] } {
  const rate = (count: PassCount) =>
    `${count.passed}/${count.runs} (${Math.round(count.interval.low * 100)}-${Math.round(count.interval.high * 100)}%)`
  const variants = comparisons.variants.map((comparison) => {
    const rows = comparison.variants.map((row) => `${row.variant} ${rate(row)}`).join(", ")
    const verdict =
      comparison.winner === undefined
        ? "none wins yet (the intervals overlap: more runs may tell)"
        : `${comparison.winner} wins (its interval lies above the others')`
    return `${comparison.case} on ${comparison.model}: ${rows}; ${verdict}`
  })
  const without = comparisons.without.map((comparison) => {
    const sign = comparison.difference > 0 ? "+" : ""
    const did = comparison.instead.map(({ what, count }) => `${what} ${count}x`).join(", ")
    return `${comparison.case} on ${comparison.model}: with ${comparison.tool} ${rate(comparison.with)}, without ${rate(comparison.without)} (${sign}${comparison.difference} points); without it the model ${did || "did nothing"}`
  })
  return { variants, without }
}
