// A case's budget (`maxTokens`, `maxCost`, `maxMs` on the case: the whole trial; on a turn: that
// turn) graded as an expectation: a trial over it fails with the figure ("used 1520 tokens, over
// maxTokens 1000"). A figure the provider did not report cannot be checked: that is a note, not a
// failure, so a model without prices does not fail every case with a `maxCost`.

import type { Budget, EvalCase, EvalTrial, TokenUsage } from "./types.ts"

export function gradeBudgets(evalCase: EvalCase, trial: EvalTrial): { reasons: string[]; notes: string[] } {
  const reasons: string[] = []
  const notes: string[] = []
  check(evalCase, "", { tokens: trial.tokens, cost: trial.cost, durationMs: trial.durationMs }, reasons, notes)
  for (const [index, turn] of (evalCase.turns ?? []).entries()) {
    const record = trial.turns[index + 1]
    if (record === undefined) continue
    check(turn, `turn ${index + 2}: `, record, reasons, notes)
  }
  return { reasons, notes }
}

// --- internal ---

interface Spent {
  tokens?: TokenUsage | undefined
  cost?: number | undefined
  durationMs?: number | undefined
}

function check(budget: Budget, prefix: string, spent: Spent, reasons: string[], notes: string[]): void {
  if (budget.maxTokens !== undefined) {
    const used = spent.tokens === undefined ? undefined : totalOf(spent.tokens)
    if (used === undefined) notes.push(`${prefix}maxTokens not checked: the provider reported no tokens`)
    else if (used > budget.maxTokens)
      reasons.push(`${prefix}over budget: used ${used} tokens, maxTokens ${budget.maxTokens}`)
  }
  if (budget.maxCost !== undefined) {
    if (spent.cost === undefined) notes.push(`${prefix}maxCost not checked: opencode knows no price for this model`)
    else if (spent.cost > budget.maxCost)
      reasons.push(`${prefix}over budget: cost $${roundCost(spent.cost)}, maxCost $${budget.maxCost}`)
  }
  if (budget.maxMs !== undefined && spent.durationMs !== undefined && spent.durationMs > budget.maxMs) {
    reasons.push(`${prefix}over budget: took ${spent.durationMs} ms, maxMs ${budget.maxMs}`)
  }
}

function totalOf(tokens: TokenUsage): number {
  return tokens.input + tokens.output + tokens.reasoning + tokens.cacheRead + tokens.cacheWrite
}

function roundCost(cost: number): string {
  return cost >= 0.01 ? cost.toFixed(4).replace(/0+$/, "").replace(/\.$/, "") : cost.toPrecision(3)
}
