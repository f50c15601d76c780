// Figures as both reports write them (terminal table and HTML page).

import type { TokenUsage } from "../../eval-cases/types.ts"
import type { EvalResult, PassInterval, ResultChange } from "../types.ts"
import { changedParts } from "./compare.ts"

export function passRate(passed: number, runs: number): string {
  return `${passed}/${runs}`
}

/** A 95% interval as whole percents: `49-94%`. */
export function formatInterval(interval: PassInterval): string {
  return `${Math.round(interval.low * 100)}-${Math.round(interval.high * 100)}%`
}

/** `8/10 (49-94%)`: passes and their 95% interval. */
export function passRateWithInterval(count: { passed: number; runs: number; interval: PassInterval }): string {
  return `${passRate(count.passed, count.runs)} (${formatInterval(count.interval)})`
}

/** A p-value as the report writes it: `p=0.33`, `p=0.012`, `p<0.001`. */
function formatPValue(p: number): string {
  if (p < 0.001) return "p<0.001"
  return `p=${p < 0.1 ? p.toFixed(3) : p.toFixed(2)}`
}

/** Whether the pass rate differs from the previous run's (as shares, not counts). */
export function rateChanged(result: { passed: number; runs: number }, change: ResultChange): boolean {
  return change.previous.passed * result.runs !== result.passed * change.previous.runs
}

/**
 * The comparison in one sentence: `5/5 -> 3/5 is within noise (Fisher's exact test, p=0.44):
 * about 12 runs each would tell.`, `... is beyond noise (p<0.001).`, or `... is the same rate.`
 */
export function significanceSentence(result: { passed: number; runs: number }, change: ResultChange): string {
  const rates = `${passRate(change.previous.passed, change.previous.runs)} -> ${passRate(result.passed, result.runs)}`
  if (!rateChanged(result, change)) return `${rates} is the same rate.`
  const significance = change.significance
  const p = formatPValue(significance.pValue)
  if (significance.beyondNoise) return `${rates} is beyond noise (Fisher's exact test, ${p}).`
  const runs = significance.runsToTell
  const tell =
    runs === undefined ? "the rates are too close for 5000 runs to tell" : `about ${runs} runs each would tell`
  return `${rates} is within noise (Fisher's exact test, ${p}): ${tell}.`
}

/** Every token the trials used (input, output, reasoning, cache), or undefined when none reported any. */
function totalTokens(tokens: TokenUsage | undefined): number | undefined {
  if (!tokens) return undefined
  return tokens.input + tokens.output + tokens.reasoning + tokens.cacheRead + tokens.cacheWrite
}

export function formatTokens(tokens: TokenUsage | undefined): string {
  const total = totalTokens(tokens)
  if (total === undefined) return "-"
  if (total >= 1_000_000) return `${(total / 1_000_000).toFixed(1)}M`
  if (total >= 10_000) return `${Math.round(total / 1000)}k`
  if (total >= 1000) return `${(total / 1000).toFixed(1)}k`
  return String(total)
}

export function formatCost(cost: number | undefined): string {
  if (cost === undefined) return "-"
  if (cost === 0) return "$0"
  if (cost < 0.01) return `$${cost.toFixed(4)}`
  return `$${cost.toFixed(2)}`
}

export function formatSeconds(durationMs: number): string {
  return durationMs < 10_000 ? `${(durationMs / 1000).toFixed(1)} s` : `${Math.round(durationMs / 1000)} s`
}

/** The mean time of one trial of a result. */
export function meanTrialTime(result: EvalResult): number {
  return result.runs === 0 ? 0 : result.durationMs / result.runs
}

/** `10/10 -> 6/10 within noise; description changed`, or `new` without a previous run (significanceSentence says more). */
export function changeSummary(result: EvalResult, change: ResultChange | undefined): string {
  if (!change) return "new"
  const rates = `${passRate(change.previous.passed, change.previous.runs)} -> ${passRate(result.passed, result.runs)}`
  const noise = !rateChanged(result, change)
    ? " same rate"
    : change.significance.beyondNoise
      ? " beyond noise"
      : " within noise"
  const why = toolChangeSummary(change)
  return why ? `${rates}${noise}; ${why}` : `${rates}${noise}`
}

/** `description changed` (one tool), `weather, forecast changed` (several), or "" when no tool changed. */
function toolChangeSummary(change: ResultChange): string {
  const [only, ...others] = change.toolChanges
  if (!only) return ""
  if (others.length > 0) return `${change.toolChanges.map((tool) => tool.id).join(", ")} changed`
  return `${changedParts(only.diff).join(" and ")} changed`
}

/** The distinct reasons the failed trials of a result give, most frequent first, with their counts. */
export function failureReasons(result: EvalResult): Array<{ reason: string; count: number }> {
  const counts = new Map<string, number>()
  for (const trial of result.trials) {
    if (trial.grade.pass) continue
    const reasons = [...trial.grade.reasons]
    // Grading states the error as `CODE: message` (maybe cut short); a grade without it gets it here.
    if (trial.error && !reasons.some((reason) => reason.startsWith(`${trial.error?.code}:`))) {
      reasons.unshift(`${trial.error.code}: ${trial.error.message}`)
    }
    if (reasons.length === 0) reasons.push("failed (no reason given)")
    for (const reason of new Set(reasons)) counts.set(reason, (counts.get(reason) ?? 0) + 1)
  }
  return [...counts].map(([reason, count]) => ({ reason, count })).sort((a, b) => b.count - a.count)
}

/** The distinct notes of a result's trials (what did not fail them), with how many trials gave each. */
export function trialNotes(result: EvalResult): Array<{ note: string; count: number }> {
  const counts = new Map<string, number>()
  for (const trial of result.trials) {
    for (const note of new Set(trial.grade.notes ?? [])) counts.set(note, (counts.get(note) ?? 0) + 1)
  }
  return [...counts].map(([note, count]) => ({ note, count })).sort((a, b) => b.count - a.count)
}

/** A case's budget per trial: `at most 2000 tokens, $0.01, 5000 ms per run`, or "" without one. */
export function budgetSummary(result: EvalResult): string {
  const budget = result.budget
  if (budget === undefined) return ""
  const parts: string[] = []
  if (budget.maxTokens !== undefined) parts.push(`${budget.maxTokens} tokens`)
  if (budget.maxCost !== undefined) parts.push(`$${budget.maxCost}`)
  if (budget.maxMs !== undefined) parts.push(`${budget.maxMs} ms`)
  return `budget: at most ${parts.join(", ")} per run`
}

/** An ISO time as `2026-12-01 19:00:00 UTC` (or as given when it is not one). */
export function readableTime(iso: string): string {
  const time = Date.parse(iso)
  if (Number.isNaN(time)) return iso
  return `${new Date(time).toISOString().slice(0, 19).replace("T", " ")} UTC`
}
