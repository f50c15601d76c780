// The trials an eval plans (each case's runs on each model) and how one runs on the server that
// runs now (eval-servers.ts): when opencode ended while it ran (its requests failed), it fails
// with OPENCODE_EXITED, or, when it ran no tool for real and another trial running then did, it
// runs again, once, on the new server (opencode-exit.ts).

import { definedFields } from "../../_defined-fields.ts"
import type { EvalCase, EvalTrial, TrialError } from "../../eval-cases/types.ts"
import type { EndedServer, EvalServers, InFlight, LiveServer } from "./eval-servers.ts"
import type { ModelPlan } from "./models.ts"
import { notRestartedError, trialVerdict } from "./opencode-exit.ts"
import { runTrial, type TrialSession } from "./trial.ts"

export interface TrialPlan {
  evalCase: EvalCase
  model: ModelPlan
  run: number
}

/** Each case's runs (its own `runs`, else `runs`, else 1) on each model, in the cases' order. */
export function trialPlans(
  options: { cases: EvalCase[]; runs?: number | undefined },
  models: ModelPlan[],
): TrialPlan[] {
  const plans: TrialPlan[] = []
  for (const evalCase of options.cases) {
    const runs = evalCase.runs ?? options.runs ?? 1
    for (let run = 1; run <= runs; run++) for (const model of models) plans.push({ evalCase, model, run })
  }
  return plans
}

export interface PlannedTrialOptions {
  sessions: Map<string, TrialSession>
  agent?: string | undefined
  /** Per trial (default 120 s). */
  timeoutMs?: number | undefined
  signal?: AbortSignal | undefined
}

/** One planned trial, in `arm` (a variant, `without <tool>`) or the normal run. */
export async function trialOnServer(
  servers: EvalServers,
  options: PlannedTrialOptions,
  plan: TrialPlan,
  arm: { name: string; without?: readonly string[] } | undefined,
): Promise<EvalTrial> {
  const { evalCase, model, run } = plan
  const which = { case: evalCase.name, ...definedFields({ arm: arm?.name }), model: model.id, run }
  for (let ranAgain = false; ; ranAgain = true) {
    let live: LiveServer
    try {
      live = await servers.current()
    } catch (error) {
      if (options.signal?.aborted) throw error
      const failed: TrialError = notRestartedError(servers.ends.at(-1), (error as Error).message)
      return { ...which, turns: [], error: failed, durationMs: 0 }
    }
    const inFlight: InFlight = { ...which, ranForReal: new Set() }
    live.inFlight.add(inFlight)
    let trial: EvalTrial
    let end: EndedServer | undefined
    try {
      trial = await runTrial({
        api: live.api,
        sessions: options.sessions,
        evalCase,
        model,
        run,
        agent: evalCase.agent ?? options.agent,
        timeoutMs: options.timeoutMs ?? defaultTrialTimeoutMs,
        maxCalls: evalCase.maxCalls ?? defaultMaxCalls,
        ranForReal: inFlight.ranForReal,
        ...definedFields({ arm: arm?.name, without: arm?.without }),
      })
      // Kept in flight until then: the end is recorded with the trials running when it came.
      if (trial.error?.code === "OPENCODE_FAILED") end = await live.endedAfterFailure()
    } finally {
      live.inFlight.delete(inFlight)
    }
    if (end === undefined || options.signal?.aborted) return trial
    const verdict = trialVerdict(end, inFlight, ranAgain)
    if (!verdict.rerun) return { ...trial, error: verdict.error }
    end.rerun += 1
  }
}

// --- internal ---

const defaultTrialTimeoutMs = 120_000
const defaultMaxCalls = 10
