// Budgets as expectations (issue 37): `maxTokens`, `maxCost` and `maxMs` on a case bound the whole
// trial, on a turn that turn; a trial over one fails with the figure, a figure the provider did not
// report is a note; the case files are checked with file:line problems like the other keys.
import path from "node:path"
import { describe, expect, test } from "vitest"
import { gradeTrial, loadEvalCases } from "../../src/eval-cases/index.ts"
import { formatEvalTable, summarizeTrials } from "../../src/eval/report/index.ts"
import type { EvalCase, EvalTrial, TurnRecord } from "../../src/eval-cases/types.ts"
import { useTmpDir, writeFiles } from "../helpers.ts"

const tokens = (input: number) => ({ input, output: 10, reasoning: 0, cacheRead: 0, cacheWrite: 0 })

function turn(prompt: string, extra: Partial<TurnRecord> = {}): TurnRecord {
  return { prompt, calls: [{ tool: "weather", args: { city: "Paris" }, status: "completed" }], text: "", ...extra }
}

function trialOf(extra: Partial<EvalTrial>): EvalTrial {
  return { case: "c", model: "m/m", run: 1, turns: [turn("p")], durationMs: 900, ...extra }
}

const expectWeather = { calls: [{ tool: "weather" }] }

describe("budgets", () => {
  test("a trial over the case's budget fails with each figure", () => {
    const evalCase: EvalCase = {
      name: "c",
      prompt: "p",
      expect: expectWeather,
      maxTokens: 500,
      maxCost: 0.01,
      maxMs: 800,
    }
    const grade = gradeTrial(evalCase, trialOf({ tokens: tokens(1510), cost: 0.025, durationMs: 1200 }))
    expect(grade).toEqual({
      pass: false,
      reasons: [
        "over budget: used 1520 tokens, maxTokens 500",
        "over budget: cost $0.025, maxCost $0.01",
        "over budget: took 1200 ms, maxMs 800",
      ],
    })
  })

  test("within the budget the trial passes", () => {
    const evalCase: EvalCase = { name: "c", prompt: "p", expect: expectWeather, maxTokens: 5000, maxMs: 5000 }
    expect(gradeTrial(evalCase, trialOf({ tokens: tokens(100) }))).toEqual({ pass: true, reasons: [] })
  })

  test("a turn's budget bounds that turn only", () => {
    const evalCase: EvalCase = {
      name: "c",
      prompt: "p",
      expect: expectWeather,
      turns: [{ prompt: "again", expect: expectWeather, maxTokens: 50, maxMs: 100 }],
    }
    const trial = trialOf({
      turns: [turn("p", { tokens: tokens(4000) }), turn("again", { tokens: tokens(60), durationMs: 150 })],
      tokens: tokens(4060),
    })
    expect(gradeTrial(evalCase, trial).reasons).toEqual([
      "turn 2: over budget: used 70 tokens, maxTokens 50",
      "turn 2: over budget: took 150 ms, maxMs 100",
    ])
  })

  test("a figure the provider did not report is a note, not a failure", () => {
    const evalCase: EvalCase = { name: "c", prompt: "p", expect: expectWeather, maxTokens: 10, maxCost: 0.01 }
    expect(gradeTrial(evalCase, trialOf({}))).toEqual({
      pass: true,
      reasons: [],
      notes: [
        "maxTokens not checked: the provider reported no tokens",
        "maxCost not checked: opencode knows no price for this model",
      ],
    })
  })

  test("the report shows the budget, the failure with its figure, and the notes", () => {
    const evalCase: EvalCase = { name: "c", prompt: "p", expect: expectWeather, maxTokens: 500, maxCost: 0.01 }
    const trial = trialOf({ tokens: tokens(1510) })
    const results = summarizeTrials([evalCase], [{ ...trial, grade: gradeTrial(evalCase, trial) }], {})
    expect(results[0]?.budget).toEqual({ maxTokens: 500, maxCost: 0.01 })
    const table = formatEvalTable({ id: "r", startedAt: "2026-12-02T10:00:00Z", durationMs: 1, results }, new Map(), {
      color: false,
      width: 120,
    })
    expect(table).toContain("  budget: at most 500 tokens, $0.01 per run")
    expect(table).toContain("  ✗ over budget: used 1520 tokens, maxTokens 500")
    expect(table).toContain("  i note: maxCost not checked: opencode knows no price for this model")
  })

  test("budgets in case files are checked, with file and line", async () => {
    const directory = useTmpDir("tool-tester-evals-")
    const file = path.join(".opencode", "evals", "budget.json")
    writeFiles(directory, {
      [file]: `[
  { "name": "a", "prompt": "p", "maxTokens": 0, "maxCost": "cheap", "maxMs": 1.5 },
  { "name": "b", "prompt": "p", "turns": [{ "prompt": "q", "maxTokens": -3, "maxCost": 0 }] },
  { "name": "c", "prompt": "p", "maxTokens": 100, "maxCost": 0.05, "maxMs": 30000, "turns": [{ "prompt": "q", "maxMs": 5000 }] }
]
`,
    })
    const { cases, problems } = await loadEvalCases(directory)
    expect(problems.map((problem) => problem.message)).toEqual([
      `${file}:2: cases[0].maxTokens: must be a whole number of tokens of at least 1, not a number (0)`,
      `${file}:2: cases[0].maxMs: must be a whole number of milliseconds of at least 1, not a number (1.5)`,
      `${file}:2: cases[0].maxCost: must be a cost in USD above 0 (0.05), not a string ("cheap")`,
      `${file}:3: cases[1].turns[0].maxTokens: must be a whole number of tokens of at least 1, not a number (-3)`,
      `${file}:3: cases[1].turns[0].maxCost: must be a cost in USD above 0 (0.05), not a number (0)`,
    ])
    expect(cases.map((evalCase) => [evalCase.name, evalCase.maxTokens, evalCase.turns?.[0]?.maxMs])).toEqual([
      ["c", 100, 5000],
    ])
  })
})
