// The shapes of `tool-tester eval` (docs/evals.md), types only: the result of a case on a model, and
// a run as kept in the history. The cases, trials and grades they are made of are in
// eval-cases/types.ts. Every stage (cases, runner, grading, history, report) speaks these, so each
// can be tested alone.
import type { Budget, EvalTrial, TokenUsage, ToolSnapshot, TrialGrade } from "../eval-cases/types.ts"

export interface GradedTrial extends EvalTrial {
  grade: TrialGrade
}

/** A pass rate's 95% interval (Wilson score), as shares between 0 and 1. */
export interface PassInterval {
  low: number
  high: number
}

/** Passes out of runs, with their 95% interval. */
export interface PassCount {
  passed: number
  runs: number
  interval: PassInterval
}

/** One case on one model in one eval run. */
export interface EvalResult {
  case: string
  /** The arm (a variant's name, or `without <tool>`); absent for the normal run on the current descriptions. */
  arm?: string
  model: string
  runs: number
  passed: number
  /** The 95% Wilson interval of `passed / runs`. */
  interval: PassInterval
  trials: GradedTrial[]
  tokens?: TokenUsage
  cost?: number
  durationMs: number
  /** The tools the case names (expected and forbidden), as offered in this run. */
  tools: ToolSnapshot[]
  /** The case's budget per trial, when it sets one (turns' budgets are in their grades' reasons). */
  budget?: Budget
}

/** One `tool-tester eval` invocation. */
export interface EvalRun {
  id: string
  /** ISO time. */
  startedAt: string
  durationMs: number
  opencodeVersion?: string
  results: EvalResult[]
}

/** One line of the history file: one case on one model in one run (trials summarised). */
export interface HistoryEntry {
  runId: string
  startedAt: string
  case: string
  model: string
  runs: number
  passed: number
  tools: ToolSnapshot[]
  /** One line per failed trial (its first reason). */
  failures: string[]
}

/** A result next to the previous run of the same case and model. */
export interface ResultChange {
  previous: HistoryEntry
  /** Tools whose description or parameters changed since then, with a line diff of each. */
  toolChanges: Array<{ id: string; diff: string }>
  /** Whether the change of pass rate is beyond noise. */
  significance: ChangeSignificance
}

/** Whether a change between two counts is beyond noise (docs/evals.md#intervals). */
export interface ChangeSignificance {
  /** Fisher's exact test on the two counts, two-sided. */
  pValue: number
  /** p < 0.05. */
  beyondNoise: boolean
  /** When not beyond noise: about how many runs of each would tell the two rates apart (absent: equal rates, or more than 5000). */
  runsToTell?: number
}

/** The pass counts of a run by case, by model and in total. */
export interface EvalTotals {
  total: PassCount
  byCase: Array<{ case: string } & PassCount>
  byModel: Array<{ model: string } & PassCount>
}
