// Grades one trial against its case, turn by turn: every expected call must be made by a call of
// its own (in order when `ordered`), no forbidden tool may be called, a call opencode rerouted to
// `invalid` (docs/opencode-contract.md#invalid-tool) fails, and a trial that ended
// in an error fails with that error. Each reason is one line that says what was expected and what
// the model did instead.
import type { EvalCase, EvalTrial, Expectation, ObservedCall, TrialGrade, TurnRecord } from "./types.ts"
import { cut, formatCall, formatValue } from "./format-value.ts"
import { BUILTIN_TOOL_IDS } from "../pipeline/builtins.ts"
import { gradeBudgets } from "./grade-budget.ts"
import type { MatchOutcome } from "./match-args.ts"
import { describeMismatch, matchArgs } from "./match-args.ts"
import { count } from "../_count.ts"

const INVALID = "invalid"

/** Whether a trial did what its case expects, and if not, why (one line per reason). */
export function gradeTrial(evalCase: EvalCase, trial: EvalTrial): TrialGrade {
  if (trial.error) return { pass: false, reasons: [`${trial.error.code}: ${cut(trial.error.message, 300)}`] }
  const expectations = [
    { prompt: evalCase.prompt, expect: evalCase.expect },
    ...(evalCase.turns ?? []).map((turn) => ({ prompt: turn.prompt, expect: turn.expect })),
  ]
  const reasons: string[] = []
  const notes: string[] = []
  for (const [index, { expect }] of expectations.entries()) {
    const prefix = expectations.length > 1 ? `turn ${index + 1}: ` : ""
    const record = trial.turns[index]
    if (!record) {
      reasons.push(`${prefix}the turn was not run (the trial recorded ${trial.turns.length} of ${expectations.length})`)
      continue
    }
    const graded = gradeTurn(expect ?? {}, record)
    for (const reason of graded.reasons) reasons.push(prefix + reason)
    for (const note of graded.notes) notes.push(prefix + note)
  }
  const budget = gradeBudgets(evalCase, trial)
  reasons.push(...budget.reasons)
  notes.push(...budget.notes)
  return notes.length === 0 ? { pass: reasons.length === 0, reasons } : { pass: reasons.length === 0, reasons, notes }
}

// --- internal ---

function gradeTurn(expect: Expectation, record: TurnRecord): { reasons: string[]; notes: string[] } {
  const expected = expect.calls ?? []
  const calls = record.calls
  const reasons: string[] = []
  const notes: string[] = []
  // outcomes[e][c]: expected call e against observed call c.
  const outcomes = expected.map((want) =>
    calls.map((call): MatchOutcome => {
      if (call.tool !== want.tool) return { match: false, path: "", expected: want.tool, got: call.tool }
      return want.args === undefined ? { match: true } : matchArgs(want.args, call.args)
    }),
  )
  // A predicate that threw fails the grade with its message, whatever else matched.
  const threw = new Set<number>()
  for (const [index, row] of outcomes.entries()) {
    const thrown = row.find((outcome) => !outcome.match && "threw" in outcome)
    if (!thrown || thrown.match) continue
    threw.add(index)
    reasons.push(`expected ${describeExpected(expected[index]!)}: ${describeMismatch(thrown)}`)
  }
  const assigned = expect.ordered ? assignInOrder(outcomes, calls.length) : assignAny(outcomes, calls.length)
  const explainedInvalid = new Set<number>()
  for (const [index, callIndex] of assigned.entries()) {
    if (callIndex !== undefined) continue
    const want = expected[index]!
    if (threw.has(index)) continue
    const orderNote = expect.ordered && outcomes[index]!.some((outcome) => outcome.match) ? " in order" : ""
    reasons.push(
      `expected ${describeExpected(want)}${orderNote}; ${describeInstead(want.tool, outcomes[index]!, record, explainedInvalid)}`,
    )
  }
  const forbidden = new Set(expect.notCalled ?? [])
  for (const [callIndex, call] of calls.entries()) {
    if (call.tool !== INVALID || explainedInvalid.has(callIndex) || expected.some((want) => want.tool === INVALID))
      continue
    const target = invalidTarget(call)
    // A built-in the eval denies (bash, edit) or this model is not offered: the model tried, nothing
    // ran, and the expectations decide; `notCalled` naming it still fails the trial (below).
    // One the case forbids is reported once, by the notCalled check below.
    if (target !== undefined && forbidden.has(target)) continue
    if (unavailable(call) && target !== undefined && BUILTIN_TOOL_IDS.includes(target)) {
      notes.push(
        `called ${target}, a built-in not offered to the model (denied by the eval or not available to it); nothing ran`,
      )
      continue
    }
    reasons.push(rejected(call))
  }
  for (const call of calls) {
    if (call.status === "error" && call.error?.startsWith("Not run by tool-tester eval") && !forbidden.has(call.tool)) {
      const note = `called ${call.tool}, which the eval refused to run`
      if (!notes.includes(note)) notes.push(note)
    }
  }
  const anyOther = forbidden.has("*")
  const expectedTools = new Set(expected.map((want) => want.tool))
  const reported = new Set<string>()
  for (const call of calls) {
    const named = nameOf(call)
    const banned =
      forbidden.has(call.tool) ||
      (call.tool === INVALID && forbidden.has(named)) ||
      (anyOther && !expectedTools.has(call.tool) && call.tool !== INVALID)
    if (!banned || reported.has(named)) continue
    reported.add(named)
    const count = calls.filter((other) => other.tool === call.tool && nameOf(other) === named).length
    const times = count > 1 ? ` (${count} times)` : ""
    const rule = forbidden.has(named) ? `${named} must not be called` : "no other tool may be called"
    reasons.push(`${rule}; called ${describeCall(call)}${times}`)
  }
  return { reasons, notes }
}

function describeExpected(want: { tool: string; args?: unknown }): string {
  return formatCall(want.tool, want.args, { matcher: true, limit: 80 })
}

/** What the model did instead of an expected call. */
function describeInstead(tool: string, row: MatchOutcome[], record: TurnRecord, explainedInvalid: Set<number>): string {
  const calls = record.calls
  if (calls.length === 0) {
    const text = cut(record.text, 120)
    return text === ""
      ? "no tool was called and the model answered nothing"
      : `no tool was called; the model answered: ${JSON.stringify(text)}`
  }
  // The same tool with other arguments says which argument differed.
  const sameTool = row.findIndex((outcome, index) => calls[index]!.tool === tool && !outcome.match)
  if (sameTool !== -1) {
    const outcome = row[sameTool]!
    const detail = outcome.match ? "" : ` (${describeMismatch(outcome)})`
    return `called ${formatCall(tool, calls[sameTool]!.args, { limit: 80 })}${detail}${othersThan(calls)}`
  }
  const rerouted = calls.findIndex((call) => call.tool === INVALID && invalidTarget(call) === tool)
  if (rerouted !== -1) {
    explainedInvalid.add(rerouted)
    return rejected(calls[rerouted]!)
  }
  // A rerouted call named here is explained here: not again as a reason of its own.
  calls.slice(0, 3).forEach((call, index) => {
    if (call.tool === INVALID) explainedInvalid.add(index)
  })
  const shown = calls.slice(0, 3).map(describeCall)
  const more = calls.length > 3 ? ` and ${calls.length - 3} more` : ""
  return `called ${shown.join(", ")}${more}`
}

/** A call as the model made it; one opencode rerouted to `invalid` by the name the model used. */
function describeCall(call: ObservedCall): string {
  if (call.tool !== INVALID) return formatCall(call.tool, call.args, { limit: 80 })
  return `${invalidTarget(call) ?? INVALID} (${unavailable(call) ? "an unavailable tool" : "rejected by opencode"})`
}

/** The tool a call named: a rerouted call's by the name the model used. */
function nameOf(call: ObservedCall): string {
  return call.tool === INVALID ? (invalidTarget(call) ?? INVALID) : call.tool
}

/** A call rerouted to `invalid` because no tool of that name was offered (docs/opencode-contract.md#invalid-tool). */
function unavailable(call: ObservedCall): boolean {
  const error = (call.args as { error?: unknown } | null)?.error
  return typeof error === "string" && /unavailable tool/i.test(error)
}

function othersThan(calls: ObservedCall[]): string {
  const others = calls.length - 1
  return others === 0 ? "" : ` and ${count(others, "other call")}`
}

/** A call opencode rerouted to `invalid`: `{ tool, error }` (the name called and the AI SDK's message). */
function rejected(call: ObservedCall): string {
  const target = invalidTarget(call)
  if (unavailable(call)) {
    return `unavailable tool: the model called ${target ?? "a tool"}, which it was not offered (opencode rerouted the call to invalid)`
  }
  const error = (call.args as { error?: unknown } | null)?.error
  const detail = typeof error === "string" ? error : (call.error ?? formatValue(call.args))
  return `arguments rejected by opencode: ${cut(`${target ? `${target}: ` : ""}${detail}`, 200)}`
}

function invalidTarget(call: ObservedCall): string | undefined {
  const target = (call.args as { tool?: unknown } | null)?.tool
  return typeof target === "string" ? target : undefined
}

/** Each expected call to the earliest matching call after the previous one (optimal for a subsequence). */
function assignInOrder(outcomes: MatchOutcome[][], callCount: number): Array<number | undefined> {
  const assigned: Array<number | undefined> = []
  let next = 0
  for (const row of outcomes) {
    let found: number | undefined
    for (let index = next; index < callCount; index++) {
      if (row[index]!.match) {
        found = index
        break
      }
    }
    assigned.push(found)
    if (found !== undefined) next = found + 1
  }
  return assigned
}

/** A maximum matching of expected calls to distinct calls (augmenting paths: a few calls, a few expectations). */
function assignAny(outcomes: MatchOutcome[][], callCount: number): Array<number | undefined> {
  const owner: Array<number | undefined> = new Array(callCount).fill(undefined)
  const tryAssign = (expected: number, seen: Set<number>): boolean => {
    for (let call = 0; call < callCount; call++) {
      if (!outcomes[expected]![call]!.match || seen.has(call)) continue
      seen.add(call)
      const current = owner[call]
      if (current === undefined || tryAssign(current, seen)) {
        owner[call] = expected
        return true
      }
    }
    return false
  }
  for (let expected = 0; expected < outcomes.length; expected++) tryAssign(expected, new Set())
  const assigned: Array<number | undefined> = new Array(outcomes.length).fill(undefined)
  for (const [call, expected] of owner.entries()) if (expected !== undefined) assigned[expected] = call
  return assigned
}
