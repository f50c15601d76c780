// How many trials an eval runs, and the most it takes: every trial is planned before the first
// starts, so a count in the billions (a case's `runs: 1e9`, a typo in --runs) ran out of memory
// after opencode had started. Checked before anything starts.
import { ToolTesterError } from "../errors.ts"

/** The most trials one eval runs (cases x runs x models x arms): hours of model calls at this count. */
const MAX_EVAL_TRIALS = 100_000

/** Each case's own `runs` (else `runs`, else 1), once per model (at least one) and per arm. */
export function trialCount(
  cases: ReadonlyArray<{ runs?: number }>,
  options: { runs?: number | undefined; models?: readonly string[] | undefined; arms?: number | undefined },
): number {
  const models = Math.max(1, options.models?.length ?? 0)
  const runs = cases.reduce((sum, evalCase) => sum + (evalCase.runs ?? options.runs ?? 1), 0)
  return runs * models * (1 + (options.arms ?? 0))
}

/** USAGE when the eval would run more than {@link MAX_EVAL_TRIALS} trials, naming the count and its parts. */
export function checkTrialCount(...args: Parameters<typeof trialCount>): void {
  const count = trialCount(...args)
  if (count <= MAX_EVAL_TRIALS) return
  const [cases, options] = args
  const models = Math.max(1, options.models?.length ?? 0)
  const arms = options.arms ?? 0
  const parts = [
    cases.length === 1 ? "1 case with its runs" : `${cases.length} cases with their runs`,
    `${models} model${models === 1 ? "" : "s"}`,
    ...(arms === 0 ? [] : [`${1 + arms} arms (variants, --without)`]),
  ]
  throw new ToolTesterError(
    "USAGE",
    `this eval would run ${count.toLocaleString("en-US")} trials (${parts.join(" x ")}), more than the ${MAX_EVAL_TRIALS.toLocaleString("en-US")} one eval runs: lower --runs or a case's runs, or run fewer cases (--case) or models at a time`,
    { data: { trials: count } },
  )
}
