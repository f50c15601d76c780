// What a pass rate says and what it does not (docs/evals.md#intervals): the 95% Wilson score
// interval of a count of passes, Fisher's exact test (two-sided) on two counts, and roughly how
// many runs would tell two pass rates apart. Short formulas, written here rather than adding a
// statistics package for three functions; tested against published values.

import type { ChangeSignificance, PassInterval } from "../types.ts"

/** z for a two-sided 95% interval. */
const Z95 = 1.959963984540054

/** The 95% Wilson score interval of `passed` out of `runs` ([0, 1] when there are no runs). */
export function wilsonInterval(passed: number, runs: number): PassInterval {
  if (runs <= 0) return { low: 0, high: 1 }
  const share = passed / runs
  const z2 = Z95 * Z95
  const denominator = 1 + z2 / runs
  const centre = (share + z2 / (2 * runs)) / denominator
  const half = (Z95 * Math.sqrt((share * (1 - share)) / runs + z2 / (4 * runs * runs))) / denominator
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) }
}

/**
 * Fisher's exact test, two-sided, on `passedA` of `runsA` against `passedB` of `runsB`: the
 * probability, were both drawn from one pass rate, of a split at least as uneven as this one
 * (the tables no more likely than the observed one, summed; 1 when either side has no runs).
 */
export function fisherExact(passedA: number, runsA: number, passedB: number, runsB: number): number {
  if (runsA <= 0 || runsB <= 0) return 1
  const total = runsA + runsB
  const passes = passedA + passedB
  const logFactorials = logFactorialTable(total)
  const logChoose = (n: number, k: number) =>
    (logFactorials[n] ?? 0) - (logFactorials[k] ?? 0) - (logFactorials[n - k] ?? 0)
  const logAll = logChoose(total, runsA)
  const probability = (x: number) => Math.exp(logChoose(passes, x) + logChoose(total - passes, runsA - x) - logAll)
  const observed = probability(passedA)
  let p = 0
  for (let x = Math.max(0, passes - runsB); x <= Math.min(passes, runsA); x++) {
    const chance = probability(x)
    // A relative tolerance, so tables as likely as the observed one count despite rounding.
    if (chance <= observed * (1 + 1e-7)) p += chance
  }
  return Math.min(1, p)
}

/** Below this p a change counts as beyond noise. */
const SIGNIFICANCE_LEVEL = 0.05

/** The most runs `runsToTell` looks at; beyond it the rates are "too close to tell". */
const MAX_RUNS_TO_TELL = 5000

/**
 * Roughly how many runs of each side would tell these two pass rates apart: the fewest runs per
 * side from which on the same two rates (passes rounded) give Fisher's p below 0.05 at every size.
 * Undefined when the rates are equal or more than `MAX_RUNS_TO_TELL` runs would be needed.
 *
 * The test is discrete and the passes are rounded, so p does not fall steadily as the runs grow: 5/5
 * against 4/5 tells at 23 runs each and not at 25 to 27, so "23" would be advice that fails. The
 * first size that tells is found growing geometrically; the answer is one above the largest size that
 * does not tell, looked for up to twice that first size (for every pair of rates of up to 30 runs,
 * the last size that did not tell was below 1.45 times it).
 */
export function runsToTell(passedA: number, runsA: number, passedB: number, runsB: number): number | undefined {
  if (runsA <= 0 || runsB <= 0) return undefined
  const rateA = passedA / runsA
  const rateB = passedB / runsB
  if (rateA === rateB) return undefined
  const tells = (runs: number) =>
    fisherExact(Math.round(rateA * runs), runs, Math.round(rateB * runs), runs) < SIGNIFICANCE_LEVEL
  let first = 2
  while (!tells(first)) {
    if (first >= MAX_RUNS_TO_TELL) return undefined
    first = Math.min(MAX_RUNS_TO_TELL, Math.ceil(first * 1.5))
  }
  let size = Math.min(MAX_RUNS_TO_TELL, first * 2)
  while (size > 1 && tells(size)) size--
  return size + 1
}

/** Whether a change between two counts is beyond noise, and if not, roughly how many runs would tell. */
export function changeSignificance(
  before: { passed: number; runs: number },
  after: { passed: number; runs: number },
): ChangeSignificance {
  const pValue = fisherExact(before.passed, before.runs, after.passed, after.runs)
  const beyondNoise = pValue < SIGNIFICANCE_LEVEL
  if (beyondNoise) return { pValue, beyondNoise }
  const runs = runsToTell(before.passed, before.runs, after.passed, after.runs)
  return runs === undefined ? { pValue, beyondNoise } : { pValue, beyondNoise, runsToTell: runs }
}

/** Whether two intervals share no value: the one above is better beyond its interval. */
export function intervalsApart(a: PassInterval, b: PassInterval): boolean {
  return a.low > b.high || b.low > a.high
}

// --- internal ---

function logFactorialTable(size: number): Float64Array {
  const table = new Float64Array(size + 1)
  for (let n = 2; n <= size; n++) table[n] = (table[n - 1] ?? 0) + Math.log(n)
  return table
}
