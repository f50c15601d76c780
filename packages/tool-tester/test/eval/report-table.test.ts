import { $ } from "kleur/colors"
import { afterEach, describe, expect, test } from "vitest"
import { compareWithPrevious, formatEvalTable, summarizeTrials } from "../../src/eval/report/index.ts"
import type { EvalRun } from "../../src/eval/types.ts"
import { cases, failedTrial, sampleRun, tools, trial } from "./_report-sample.ts"

const colorWas = $.enabled
afterEach(() => {
  $.enabled = colorWas
})

describe("formatEvalTable", () => {
  test("a row per case x model with the change since the previous run, what failed, and each tool diff once", () => {
    const { run, history } = sampleRun()
    const text = formatEvalTable(run, compareWithPrevious(run.results, history), { color: false, width: 120 })
    expect(text).toBe(
      [
        "tool-tester eval: 2 cases x 2 models, 4.2 s, opencode 1.18.34",
        "",
        "case / model      passed (95%)  vs previous                                   tokens     cost  time/run",
        "weather-paris",
        "  keyword/model    1/3 (6-79%)  3/3 -> 1/3 within noise; description changed    1.2k  $0.0012     1.1 s",
        "  mock/scripted  1/1 (21-100%)  1/3 -> 1/1 within noise                            -        -     0.8 s",
        "forecast-then-weather",
        "  keyword/model    0/1 (0-79%)  1/3 -> 0/1 within noise; description changed       -        -     1.0 s",
        "",
        "2/5 (12-77%) trials passed; 1/3 case x model passed every run.",
        "By model: keyword/model 1/4 (5-70%), mock/scripted 1/1 (21-100%)",
        "By case: weather-paris 2/4 (15-85%), forecast-then-weather 0/1 (0-79%)",
        "Pass rates show their 95% interval (Wilson) in brackets.",
        "",
        "weather-paris on keyword/model: 1/3 passed",
        '  ✗ 2x expected weather({"city":"Paris"}); called bash({"command":"curl wttr.in/Paris"})',
        "  Changed since the previous run (3/3 on 2026-11-30 10:00:00 UTC): weather (description)",
        "",
        "forecast-then-weather on keyword/model: 0/1 passed",
        "  ✗ RATE_LIMITED: 429 Too Many Requests",
        "  Changed since the previous run (1/3 on 2026-11-30 10:00:00 UTC): weather (description)",
        "",
        "Pass rates since the previous run",
        "  weather-paris on keyword/model: 3/3 -> 1/3 is within noise (Fisher's exact test, p=0.40): about 7 runs each would",
        "    tell.",
        "  weather-paris on mock/scripted: 1/3 -> 1/1 is within noise (Fisher's exact test, p=1.00): about 7 runs each would",
        "    tell.",
        "  forecast-then-weather on keyword/model: 1/3 -> 0/1 is within noise (Fisher's exact test, p=1.00): about 14 runs each",
        "    would tell.",
        "",
        "Tools changed since the previous run",
        "  weather (since 2026-11-30 10:00:00 UTC)",
        "    description",
        "    - Weather for a city",
        "    + Current weather for a city",
        "",
      ].join("\n"),
    )
  })

  test("without a previous run every row is new, and columns no provider filled are left out", () => {
    const run: EvalRun = {
      id: "run-1",
      startedAt: "2026-12-01T19:00:00.000Z",
      durationMs: 1000,
      results: summarizeTrials(cases, [trial({ case: "weather-paris", model: "mock/scripted", run: 1 })], tools),
    }
    expect(formatEvalTable(run, new Map(), { color: false })).toBe(
      [
        "tool-tester eval: 1 case x 1 model, 1.0 s",
        "",
        "case / model      passed (95%)  vs previous  time/run",
        "weather-paris",
        "  mock/scripted  1/1 (21-100%)  new             1.0 s",
        "",
        "1/1 (21-100%) trials passed; 1/1 case x model passed every run.",
        "Pass rates show their 95% interval (Wilson) in brackets.",
        "",
      ].join("\n"),
    )
  })

  test("keeps every line within the width, wrapping cells and reasons", () => {
    const { run, history } = sampleRun()
    const text = formatEvalTable(run, compareWithPrevious(run.results, history), { color: false, width: 80 })
    const lines = text.split("\n")
    expect(lines.filter((line) => [...line].length > 80)).toEqual([])
    // Wrapped, not cut: the change goes on in its own column on the next line.
    expect(lines.slice(2, 10)).toEqual([
      "case / model      passed (95%)  vs previous            tokens     cost  time/run",
      "weather-paris",
      "  keyword/model    1/3 (6-79%)  3/3 -> 1/3 within        1.2k  $0.0012     1.1 s",
      "                                noise; description",
      "                                changed",
      "  mock/scripted  1/1 (21-100%)  1/3 -> 1/1 within           -        -     0.8 s",
      "                                noise",
      "forecast-then-weather",
    ])
  })

  test("shows what a model wrote escaped, so it cannot drive the terminal", () => {
    const hostile = "called bash\u001b[2J\u001b]0;pwned\u0007 \u202eevil\r\nnext"
    const run: EvalRun = {
      id: "run-1",
      startedAt: "2026-12-01T19:00:00.000Z",
      durationMs: 1000,
      results: summarizeTrials(cases, [failedTrial({ case: "weather-paris", model: "x/y", run: 1 }, hostile)], tools),
    }
    const text = formatEvalTable(run, new Map(), { color: false })
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the test is that none is left.
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/)
    expect(text).toContain("called bash\\u001b[2J\\u001b]0;pwned\\u0007 \\u202eevil\\r\\nnext")
  })

  test("colours only when asked", () => {
    $.enabled = true
    const { run, history } = sampleRun()
    const changes = compareWithPrevious(run.results, history)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for colour codes.
    const ansi = /\u001b\[\d+m/
    expect(formatEvalTable(run, changes, { color: true })).toMatch(ansi)
    expect(formatEvalTable(run, changes, { color: false })).not.toMatch(ansi)
  })

  test("an empty run says no case ran", () => {
    const run: EvalRun = { id: "r", startedAt: "2026-12-01T19:00:00.000Z", durationMs: 5, results: [] }
    expect(formatEvalTable(run, new Map(), { color: false })).toBe(
      "tool-tester eval: 0 cases x 0 models, 0.0 s\nNo case ran.\n",
    )
  })
})
