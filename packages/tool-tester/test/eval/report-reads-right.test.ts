// The eval report reads right (issue 37 point 5): failed shares of the trend bars in the failure
// colour with a legend; each reason once; a call rerouted to `invalid` for want of the tool named
// "unavailable tool"; a denied or unavailable built-in is a note, not a failure, when the case's
// expectations held; EVAL_NO_MODEL before anything starts, without a history line.
import path from "node:path"
import { describe, expect, test } from "vitest"
import { gradeTrial } from "../../src/eval-cases/index.ts"
import { noModelProblem } from "../../src/eval/configured-model.ts"
import { renderEvalHtml, summarizeTrials } from "../../src/eval/report/index.ts"
import type { EvalCase, EvalTrial, ObservedCall } from "../../src/eval-cases/types.ts"
import { runCli, useTmpDir, writeFiles } from "../helpers.ts"
import { cases, failedTrial, tools } from "./_report-sample.ts"

const weatherCase: EvalCase = { name: "w", prompt: "weather in Paris", expect: { calls: [{ tool: "weather" }] } }

function trialWith(calls: ObservedCall[]): EvalTrial {
  return { case: "w", model: "m/m", run: 1, turns: [{ prompt: "weather in Paris", calls, text: "" }], durationMs: 1 }
}

const weatherCall: ObservedCall = { tool: "weather", args: { city: "Paris" }, status: "completed", output: "sunny" }
const unavailableBash: ObservedCall = {
  tool: "invalid",
  args: {
    tool: "bash",
    error: "Model tried to call unavailable tool 'bash'. Available tools: invalid, read, weather.",
  },
  status: "completed",
}

describe("the report reads right", () => {
  test("a trend bar of failed runs is drawn in the failure colour, and the legend says so", () => {
    const run = {
      id: "now",
      startedAt: "2026-12-02T10:00:00.000Z",
      durationMs: 1,
      results: summarizeTrials(cases, [failedTrial({ case: "weather-paris", model: "keyword/model", run: 1 })], tools),
    }
    const history = [
      {
        runId: "before",
        startedAt: "2026-12-01T10:00:00.000Z",
        case: "weather-paris",
        model: "keyword/model",
        runs: 2,
        passed: 0,
        tools: [],
        failures: [],
      },
    ]
    const page = renderEvalHtml(run, new Map(), history)
    // Both points failed every run: a full-height bar in the failure colour, no passed share.
    expect(page).toContain(
      `<rect x="0" y="0" width="6" height="18" class="failed"/><rect x="0" y="18" width="6" height="0" class="passed"/>`,
    )
    expect(page).toContain("svg.trend rect.failed{fill:var(--fail-bar)}")
    expect(page).toContain('the <span class="bar-fail">upper, red part</span> the share that failed')
  })

  test("a trial's error is shown once, not also as a reason", () => {
    const trial = { ...trialWith([]), error: { code: "RATE_LIMITED", message: "429 Too Many Requests" } }
    const graded = { ...trial, case: "weather-paris", model: "m/m", grade: gradeTrial(weatherCase, trial) }
    const run = {
      id: "now",
      startedAt: "2026-12-02T10:00:00.000Z",
      durationMs: 1,
      results: summarizeTrials(cases, [graded], tools),
    }
    const page = renderEvalHtml(run, new Map(), [])
    const trialPart = page.slice(page.indexOf('<ol class="trials">'))
    expect(trialPart.match(/429 Too Many Requests/g)).toHaveLength(1)
  })

  test("a call of a tool the model was not offered is an unavailable tool, named once", () => {
    const hallucinated: ObservedCall = {
      tool: "invalid",
      args: {
        tool: "get_weather",
        error: "Model tried to call unavailable tool 'get_weather'. Available tools: weather.",
      },
      status: "completed",
    }
    expect(gradeTrial(weatherCase, trialWith([hallucinated])).reasons).toEqual([
      "expected weather; called get_weather (an unavailable tool)",
    ])
  })

  test("an unavailable built-in does not fail a case whose expectations held: it is a note", () => {
    expect(gradeTrial(weatherCase, trialWith([unavailableBash, weatherCall]))).toEqual({
      pass: true,
      reasons: [],
      notes: [
        "called bash, a built-in not offered to the model (denied by the eval or not available to it); nothing ran",
      ],
    })
    // Named in notCalled, it still fails.
    const strict: EvalCase = { ...weatherCase, expect: { calls: [{ tool: "weather" }], notCalled: ["bash"] } }
    expect(gradeTrial(strict, trialWith([unavailableBash, weatherCall])).reasons).toEqual([
      "bash must not be called; called bash (an unavailable tool)",
    ])
  })

  test("a built-in the eval refused to run is a note", () => {
    const refused: ObservedCall = {
      tool: "bash",
      args: { command: "curl wttr.in" },
      status: "error",
      error: "Not run by tool-tester eval: the built-in bash writes files or runs commands.",
    }
    expect(gradeTrial(weatherCase, trialWith([refused, weatherCall]))).toEqual({
      pass: true,
      reasons: [],
      notes: ["called bash, which the eval refused to run"],
    })
  })

  test("no model anywhere: EVAL_NO_MODEL from the config alone; a model or a plugin defers to opencode", () => {
    const home = useTmpDir("tool-tester-home-")
    const env = { HOME: home, XDG_CONFIG_HOME: path.join(home, ".config") }
    const project = useTmpDir("tool-tester-project-")
    writeFiles(project, { ".opencode/opencode.json": "{}\n" })
    expect(noModelProblem(project, env)?.code).toBe("EVAL_NO_MODEL")
    expect(noModelProblem(project, { ...env, OPENCODE_CONFIG_CONTENT: '{"model":"a/b"}' })).toBeUndefined()
    writeFiles(project, { ".opencode/opencode.json": '{ "model": "keyword/alpha" }\n' })
    expect(noModelProblem(project, env)).toBeUndefined()
    writeFiles(project, { ".opencode/opencode.json": '{ "plugin": ["some-plugin"] }\n' })
    expect(noModelProblem(project, env)).toBeUndefined()
  })

  test("eval with no model says EVAL_NO_MODEL at once, and prints no history path", async () => {
    const project = useTmpDir("tool-tester-project-")
    writeFiles(project, {
      ".opencode/evals/w.json": JSON.stringify([weatherCase]),
      ".opencode/tools/weather.ts":
        "export default { description: 'weather', args: {}, execute: async () => 'sunny' }\n",
    })
    const result = await runCli(["eval"], { cwd: project })
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain("EVAL_NO_MODEL")
    expect(result.stderr).not.toContain("history:")
  }, 60_000)
})
