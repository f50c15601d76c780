// The trials of a run grouped into one result per case and model: how many runs passed, the
// tokens, cost and time they took, and the tools the case names as that model was offered them
// (kept in the history so the next run can say what changed).

import type { Budget, EvalCase, TokenUsage, ToolSnapshot } from "../../eval-cases/types.ts"
import type { EvalResult, EvalTotals, GradedTrial, PassCount } from "../types.ts"
import { wilsonInterval } from "./statistics.ts"

/**
 * One result per case x model that has trials: cases in the order given (cases not given after
 * them, as their trials come), models in the order their first trial comes. Tokens and cost are
 * summed over the trials that reported them, and absent when none did; `durationMs` is the sum of
 * the trials' times. `tools` holds the tools the case names (expected calls and `notCalled`, in all
 * turns) that the model was offered, from `tools[model]`.
 */
export function summarizeTrials(
  cases: EvalCase[],
  trials: GradedTrial[],
  tools: Record<string, ToolSnapshot[]>,
): EvalResult[] {
  const caseOrder = new Map(cases.map((evalCase, index) => [evalCase.name, index]))
  const casesByName = new Map(cases.map((evalCase) => [evalCase.name, evalCase]))
  const models: string[] = []
  const groups = new Map<string, GradedTrial[]>()
  const caseNames: string[] = []
  // The normal run first, then each arm in the order its first trial comes.
  const arms: Array<string | undefined> = [undefined]
  for (const trial of trials) {
    if (!models.includes(trial.model)) models.push(trial.model)
    if (!caseNames.includes(trial.case)) caseNames.push(trial.case)
    if (!arms.includes(trial.arm)) arms.push(trial.arm)
    const key = armKey(trial.case, trial.model, trial.arm)
    const group = groups.get(key)
    if (group) group.push(trial)
    else groups.set(key, [trial])
  }
  const orderedCases = caseNames
    .map((name, index) => ({ name, rank: caseOrder.get(name) ?? cases.length + index }))
    .sort((a, b) => a.rank - b.rank)
    .map((entry) => entry.name)

  const results: EvalResult[] = []
  for (const arm of arms)
    for (const caseName of orderedCases) {
      for (const model of models) {
        const group = groups.get(armKey(caseName, model, arm))
        if (!group) continue
        const sorted = [...group].sort((a, b) => a.run - b.run)
        const passed = sorted.filter((trial) => trial.grade.pass).length
        const result: EvalResult = {
          case: caseName,
          ...(arm === undefined ? {} : { arm }),
          model,
          runs: sorted.length,
          passed,
          interval: wilsonInterval(passed, sorted.length),
          trials: sorted,
          durationMs: sorted.reduce((sum, trial) => sum + trial.durationMs, 0),
          tools: namedTools(casesByName.get(caseName), tools[model] ?? []),
        }
        const budget = budgetOf(casesByName.get(caseName))
        if (budget !== undefined) result.budget = budget
        const tokens = sumTokens(sorted)
        if (tokens) result.tokens = tokens
        const costs = sorted.flatMap((trial) => (trial.cost === undefined ? [] : [trial.cost]))
        if (costs.length > 0) result.cost = costs.reduce((sum, cost) => sum + cost, 0)
        results.push(result)
      }
    }
  return results
}

/** The passes of the results by case, by model and in total, each with its 95% interval. */
export function totalsOf(results: EvalResult[]): EvalTotals {
  const byCase = new Map<string, EvalResult[]>()
  const byModel = new Map<string, EvalResult[]>()
  for (const result of results) {
    byCase.set(result.case, [...(byCase.get(result.case) ?? []), result])
    byModel.set(result.model, [...(byModel.get(result.model) ?? []), result])
  }
  return {
    total: passCount(results),
    byCase: [...byCase].map(([name, group]) => ({ case: name, ...passCount(group) })),
    byModel: [...byModel].map(([model, group]) => ({ model, ...passCount(group) })),
  }
}

/** Passes out of runs over some results, with the interval. */
export function passCount(results: Array<{ passed: number; runs: number }>): PassCount {
  const passed = results.reduce((sum, result) => sum + result.passed, 0)
  const runs = results.reduce((sum, result) => sum + result.runs, 0)
  return { passed, runs, interval: wilsonInterval(passed, runs) }
}

/** The key of a case on a model in the maps the report uses (`compareWithPrevious`). */
export function resultKey(caseName: string, model: string): string {
  return `${caseName}\u0000${model}`
}

/** The tool ids a case names: its expected calls and `notCalled` ids (not `"*"`), in every turn, first mention first. */
export function namedToolIds(evalCase: EvalCase): string[] {
  const ids: string[] = []
  for (const expectation of [evalCase.expect, ...(evalCase.turns ?? []).map((turn) => turn.expect)]) {
    for (const call of expectation?.calls ?? []) if (!ids.includes(call.tool)) ids.push(call.tool)
    for (const id of expectation?.notCalled ?? []) if (id !== "*" && !ids.includes(id)) ids.push(id)
  }
  return ids
}

// --- internal ---

function armKey(caseName: string, model: string, arm: string | undefined): string {
  return `${resultKey(caseName, model)}\u0000${arm ?? ""}`
}

function budgetOf(evalCase: EvalCase | undefined): Budget | undefined {
  if (evalCase === undefined) return undefined
  const budget: Budget = {}
  if (evalCase.maxTokens !== undefined) budget.maxTokens = evalCase.maxTokens
  if (evalCase.maxCost !== undefined) budget.maxCost = evalCase.maxCost
  if (evalCase.maxMs !== undefined) budget.maxMs = evalCase.maxMs
  return Object.keys(budget).length === 0 ? undefined : budget
}

function namedTools(evalCase: EvalCase | undefined, offered: ToolSnapshot[]): ToolSnapshot[] {
  if (!evalCase) return []
  return namedToolIds(evalCase).flatMap((id) => offered.filter((tool) => tool.id === id).slice(0, 1))
}

function sumTokens(trials: GradedTrial[]): TokenUsage | undefined {
  const reported = trials.flatMap((trial) => (trial.tokens ? [trial.tokens] : []))
  if (reported.length === 0) return undefined
  const total: TokenUsage = { input: 0, output: 0, reasoning: 0, cacheRead: 0, cacheWrite: 0 }
  for (const tokens of reported) {
    total.input += tokens.input
    total.output += tokens.output
    total.reasoning += tokens.reasoning
    total.cacheRead += tokens.cacheRead
    total.cacheWrite += tokens.cacheWrite
  }
  return total
}
