// `evalSuite()`: a project's eval cases as vitest tests: one test per case (failing when a model's
// pass rate for it is below the threshold, with what the model called instead), a test for the case
// files and models, and a gate on the pass rate of all trials together (docs/evals.md#in-vitest).
//   import { evalSuite } from "@opencode-ai/tool-tester/vitest"
//   await evalSuite({ models: ["anthropic/claude-sonnet-4-5"], runs: 3, threshold: 0.8 })

import { definedFields } from "../_defined-fields.ts"
import { checkTimeoutOption } from "../_timeout-bound.ts"
import { checkEvalSuiteOptions, evalSuiteBound, evalSuiteDirectory } from "./eval-suite-options.ts"
import { resolve } from "node:path"
import { beforeAll, describe, expect, test } from "vitest"
import type { EvalProjectResult } from "../eval/run-project.ts"
import type { EvalResult } from "../eval/types.ts"

export interface EvalSuiteOptions {
  /** The project folder (default: the working directory; inside a `.opencode` folder, its parent). */
  directory?: string
  /** `provider/model` ids (default: the project's configured model). */
  models?: string[]
  /** Runs per case and model, for cases that do not set `runs` (default 1). */
  runs?: number
  agent?: string
  /** Only these cases. */
  cases?: string[]
  /** The lowest pass rate a case may have on a model, and the whole run (default 1: every trial passes). */
  threshold?: number
  /** Trials in flight at once (default 4). */
  concurrency?: number
  /** Bound of one trial (default 120 s). */
  timeoutMs?: number
  /** The history file, or false (default: the project's `.opencode/evals/history.jsonl`). */
  history?: string | false
  /** The opencode binary (default: found as `tool-tester eval` finds it). */
  opencode?: string
}

export async function evalSuite(options: EvalSuiteOptions = {}): Promise<void> {
  checkEvalSuiteOptions(options as Record<string, unknown>)
  checkTimeoutOption("timeoutMs", options.timeoutMs)
  const { passRate, prepareEval, runEvalProject } = await import("../eval/run-project.ts")
  const directory = evalSuiteDirectory(options.directory)
  const prepared = await prepareEval(directory, options.cases ?? [])
  const threshold = options.threshold ?? 1
  const bound = evalSuiteBound(prepared.cases, options)
  let outcome: EvalProjectResult | undefined

  describe(`tool-tester eval (${prepared.cases.length} cases)`, () => {
    beforeAll(async () => {
      outcome = await runEvalProject({
        prepared,
        models: options.models ?? [],
        ...definedFields({
          runs: options.runs,
          agent: options.agent,
          concurrency: options.concurrency,
          timeoutMs: options.timeoutMs,
          historyFile: options.history,
          opencode: options.opencode,
        }),
      })
    }, bound)

    test("the case files and models are valid", () => {
      // The outcome's problems start with the cases' own; without an outcome, those are all there is.
      const problems = problemLines(outcome?.problems ?? prepared.problems)
      if (problems.length > 0) expect.fail(problems.join("\n"))
      if (prepared.cases.length === 0)
        expect.fail(
          `no eval cases in ${resolve(directory, ".opencode", "evals")}${options.cases === undefined ? "" : ` named ${options.cases.join(", ")}`}: tool-tester's eval --init writes starter cases (docs/evals.md)`,
        )
    })

    for (const evalCase of prepared.cases) {
      test(evalCase.name, () => {
        const results = outcome!.run.results.filter((result) => result.case === evalCase.name)
        expect(results.length, `no model ran ${evalCase.name}`).toBeGreaterThan(0)
        const below = results.filter((result) => passRate(result) < threshold)
        if (below.length > 0)
          expect.fail(`pass rate below ${percent(threshold)}: ${below.map(describeResult).join("\n")}`)
      })
    }

    test(`gate: at least ${percent(threshold)} of all trials pass`, () => {
      const results = outcome!.run.results
      const passed = results.reduce((sum, result) => sum + result.passed, 0)
      const total = results.reduce((sum, result) => sum + result.runs, 0)
      expect(total, "no trial ran").toBeGreaterThan(0)
      if (passRate({ passed, runs: total }) < threshold) {
        expect.fail(`${passed}/${total} trials passed, below ${percent(threshold)}`)
      }
    })
  })
}

// --- internal ---

function describeResult(result: EvalResult): string {
  const reasons = [...new Set(result.trials.flatMap((trial) => trial.grade.reasons))].slice(0, 3)
  return `${result.case} on ${result.model}: ${result.passed}/${result.runs}${reasons.length > 0 ? ` (${reasons.join("; ")})` : ""}`
}

function problemLines(problems: Array<{ code: string; message: string }>): string[] {
  return problems.map((problem) => `${problem.code}: ${problem.message}`)
}

function percent(rate: number): string {
  return `${Math.round(rate * 100)}%`
}
