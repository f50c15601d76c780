// evalSuite()'s options, checked before anything starts: a wrong one is one USAGE error naming it,
// not a TypeError from deep in the run, a gate nobody can pass, or a run of zero trials.

import path from "node:path"
import { refuseUnknownOptions } from "../_known-options.ts"
import { MAX_TIMEOUT_MS } from "../_timeout-bound.ts"
import { ToolTesterError } from "../errors.ts"
import { isModelId } from "../eval/model-id.ts"
import { trialCount } from "../eval/trial-count.ts"

/** Every option evalSuite takes (EvalSuiteOptions): `model` for `models` would run the configured model. */
const EVAL_SUITE_OPTIONS: Record<string, true> = {
  directory: true,
  models: true,
  runs: true,
  agent: true,
  cases: true,
  threshold: true,
  concurrency: true,
  timeoutMs: true,
  history: true,
  opencode: true,
}

/** `options`: evalSuite's EvalSuiteOptions, as a user may have written them. */
export function checkEvalSuiteOptions(options: Record<string, unknown>): void {
  if (typeof options !== "object" || options === null || Array.isArray(options))
    throw new ToolTesterError(
      "USAGE",
      `evalSuite's options must be an object, such as { models }, not ${shown(options)}`,
      {
        data: { option: "options" },
      },
    )
  refuseUnknownOptions("evalSuite", options, EVAL_SUITE_OPTIONS)
  const { models, cases, runs, concurrency, threshold } = options
  const fail = (option: string, message: string) =>
    new ToolTesterError("USAGE", `evalSuite: ${option} ${message}, not ${shown(options[option])}`, {
      data: { option },
    })
  if (
    models !== undefined &&
    !(Array.isArray(models) && models.every((model) => typeof model === "string" && isModelId(model)))
  )
    throw fail("models", 'must be an array of provider/model ids, such as ["anthropic/claude-sonnet-4-5"]')
  if (cases !== undefined && !(Array.isArray(cases) && cases.every((name) => typeof name === "string")))
    throw fail("cases", "must be an array of case names")
  for (const [option, value] of [
    ["runs", runs],
    ["concurrency", concurrency],
  ] as const) {
    if (value !== undefined && !(Number.isSafeInteger(value) && (value as number) >= 1))
      throw fail(option, "must be a whole number of at least 1")
  }
  if (threshold !== undefined && !(typeof threshold === "number" && threshold >= 0 && threshold <= 1)) {
    // The CLI's --threshold also takes 80 for 80%: here a rate is a fraction.
    const percent = typeof threshold === "number" && threshold > 1 && threshold <= 100
    throw fail(
      "threshold",
      `must be a pass rate from 0 to 1${percent ? ` (${threshold / 100} for ${threshold}%)` : ""}`,
    )
  }
}

function shown(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value)
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}

/**
 * How long evalSuite's run may take: opencode's start, then every trial its whole bound, a few at
 * a time. A case's own `runs` counts (a case with `runs: 10` is ten trials per model, whatever the
 * option says); no longer than a timer can wait (vitest's hook timer would fire at once).
 */
export function evalSuiteBound(
  cases: ReadonlyArray<{ runs?: number }>,
  options: { runs?: number; models?: readonly string[]; concurrency?: number; timeoutMs?: number },
): number {
  const trials = trialCount(cases, options)
  const trialBound = options.timeoutMs ?? 120_000
  return Math.min(MAX_TIMEOUT_MS, 120_000 + Math.ceil(trials / (options.concurrency ?? 4)) * trialBound)
}

/**
 * The project evalSuite evaluates: `directory`, else the working directory, or its parent when that
 * is a `.opencode` folder, as the CLI takes it: `npm test --prefix .opencode` (the scaffold's way to
 * run its tests, where evals.test.ts lives) runs vitest inside `.opencode`, where the working
 * directory holds no `.opencode/evals`.
 */
export function evalSuiteDirectory(directory: string | undefined, cwd = process.cwd()): string {
  if (directory !== undefined) return path.resolve(cwd, directory)
  const here = path.resolve(cwd)
  return path.basename(here) === ".opencode" ? path.dirname(here) : here
}
