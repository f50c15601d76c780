// What `tool-tester eval` costs per case beyond the model's own time, side by side with two
// references measured in the same run (bench/_opencode-runs.ts): a text-only `opencode run` turn
// (the floor: opencode alone) and a `tool-tester e2e` run with one call (the target: issue 25 asks
// that an eval case cost at most that). The model is the tests' keyword model on 127.0.0.1, which
// answers at once, so the time measured is the eval's and opencode's, not a model's.
//
// Each eval run is all in: copy of the project, wrapping its tools, one `opencode serve`, a session
// per case (two model turns and one wrapped call each), teardown. It is measured for one case and
// for `--cases N` cases (default 8) at concurrency 1 and 4; per case is the wall time over N.
// Target: eval per case (N cases, concurrency 4) <= the e2e run. From packages/tool-tester:
//
//   node --import tsx bench/eval-overhead.ts [--runs N] [--cases N]
import { mkdtempSync, rmSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { benchArgs } from "../../../bench/_args.mjs"
import { runEvalTrials } from "../src/eval/runner/index.ts"
import type { EvalCase } from "../src/eval-cases/types.ts"
import { resolveOpencode } from "../src/opencode/opencode-binary.ts"
import { makeEvalHome } from "../test/support/eval-home.ts"
import { startKeywordModel } from "../test/support/keyword-model.ts"
import { e2eCallOnce, textTurnOnce } from "./_opencode-runs.ts"
import { median } from "./_stats.ts"

const args = benchArgs(import.meta.url, {
  runs: { type: "string", default: "3" },
  cases: { type: "string", default: "8" },
})
const runs = args.count("runs")
const caseCount = args.count("cases")
const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const project = path.join(packageRoot, "test", "fixtures", "eval-project")

const keyword = await startKeywordModel()
const home = makeEvalHome({ providers: { keyword: { baseURL: keyword.baseURL, models: ["alpha"] } } })
// The eval reads the user's homes from the environment: this process's user is the throw-away one.
home.use((name, value) => {
  if (value === undefined) delete process.env[name]
  else process.env[name] = value
})
const empty = mkdtempSync(path.join(os.tmpdir(), "bench-eval-empty-"))

function cases(count: number): EvalCase[] {
  return Array.from({ length: count }, (_, index) => ({
    name: `weather ${index + 1}`,
    prompt: `weather forecast for city=Paris${index + 1}`,
    results: { weather: "Sunny" },
  }))
}

/** Wall time of one eval of `count` cases, and the median time of its trials (session and turns). */
async function evalOnce(count: number, concurrency: number): Promise<{ wall: number; trial: number }> {
  const started = performance.now()
  const result = await runEvalTrials({
    directory: project,
    cases: cases(count),
    models: ["keyword/alpha"],
    concurrency,
  })
  const wall = performance.now() - started
  for (const trial of result.trials) {
    const call = trial.turns[0]?.calls[0]
    if (trial.error !== undefined || call?.tool !== "weather" || call.output !== "Sunny")
      throw new Error(`eval trial ${trial.case} went wrong: ${JSON.stringify(trial)}`)
  }
  return { wall, trial: median(result.trials.map((trial) => trial.durationMs)) }
}

const list = (values: number[]) => values.map((value) => value.toFixed(0)).join(", ")

try {
  const binary = await resolveOpencode({ directory: packageRoot })
  const baseline: number[] = []
  const e2e: number[] = []
  const evalOne: number[] = []
  const serial: number[] = []
  const parallel: number[] = []
  const trials: number[] = []
  // Interleaved, so a slow moment of this noisy machine hits every side alike.
  for (let index = 0; index < runs; index++) {
    baseline.push(await textTurnOnce(binary, empty))
    e2e.push(
      await e2eCallOnce(project, {
        tool: "weather",
        args: { city: "Paris" },
        expected: "Sunny in Paris, 21 degrees (really run)",
      }),
    )
    evalOne.push((await evalOnce(1, 1)).wall)
    serial.push((await evalOnce(caseCount, 1)).wall / caseCount)
    const many = await evalOnce(caseCount, 4)
    parallel.push(many.wall / caseCount)
    trials.push(many.trial)
  }
  const reference = median(e2e)
  const ratio = (values: number[]) => `${(median(values) / reference).toFixed(2)}x e2e`
  console.log(`runs: ${runs} of each, interleaved; ${caseCount} cases per many-case eval; opencode ${binary}`)
  console.log(
    `baseline  opencode run, one text-only turn:          median ${median(baseline).toFixed(0)} ms  (${list(baseline)})  ${(median(baseline) / reference).toFixed(2)}x e2e`,
  )
  console.log(`e2e       tool-tester e2e, one call, all in:          median ${reference.toFixed(0)} ms  (${list(e2e)})`)
  console.log(
    `eval      1 case, all in:                             median ${median(evalOne).toFixed(0)} ms  (${list(evalOne)})  ${ratio(evalOne)}`,
  )
  console.log(
    `eval      ${caseCount} cases, concurrency 1, per case:           median ${median(serial).toFixed(0)} ms  (${list(serial)})  ${ratio(serial)}`,
  )
  console.log(
    `eval      ${caseCount} cases, concurrency 4, per case:           median ${median(parallel).toFixed(0)} ms  (${list(parallel)})  ${ratio(parallel)}`,
  )
  console.log(
    `eval      one trial inside the server (concurrency 4):  median ${median(trials).toFixed(0)} ms  (${list(trials)})`,
  )
  const pass = median(parallel) <= reference
  console.log(`target: eval per case (${caseCount} cases, concurrency 4) <= e2e one call: ${pass ? "PASS" : "FAIL"}`)
} finally {
  await keyword.close()
  home.remove()
  rmSync(empty, { recursive: true, force: true })
}
