// docs/evals.md shows a terminal report and JSON case files: the report must be what
// formatEvalTable prints for that run, and every JSON block must parse.
import { readFileSync } from "node:fs"
import path from "node:path"
import { expect, test } from "vitest"
import { compareWithPrevious, formatEvalTable, historyEntry, summarizeTrials } from "../../src/eval/report/index.ts"
import type { EvalCase, EvalRun, GradedTrial, ToolSnapshot } from "../../src/eval/types.ts"
import { packageRoot } from "../helpers.ts"

const page = readFileSync(path.join(packageRoot, "..", "..", "docs", "evals.md"), "utf8")

/** The fenced blocks of the page whose fence names `language` ("" for a bare fence). */
function blocks(language: string): string[] {
  const found: string[] = []
  let open: { language: string; lines: string[] } | undefined
  for (const line of page.split("\n")) {
    const fence = /^\s*```(\w*)\s*$/.exec(line)
    if (open && fence && fence[1] === "") {
      if (open.language === language) found.push(open.lines.join("\n"))
      open = undefined
    } else if (open) {
      open.lines.push(line)
    } else if (fence) {
      open = { language: fence[1] ?? "", lines: [] }
    }
  }
  return found
}

test("the report docs/evals.md shows is what formatEvalTable prints for that run", () => {
  const weather: ToolSnapshot = {
    id: "weather",
    description: "Current weather for a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  }
  const cases: EvalCase[] = [
    { name: "weather: does its job", prompt: "What's the weather in Paris?", expect: { calls: [{ tool: "weather" }] } },
    {
      name: "weather: not called for small talk",
      prompt: "Thanks, that is all for now.",
      expect: { notCalled: ["weather"] },
    },
  ]
  const sonnet = "anthropic/claude-sonnet-4-5"
  const gpt = "openai/gpt-5"
  const reasons: Record<string, string> = {
    [sonnet]: 'expected weather({city: /^paris$/i}); called webfetch({url: "https://wttr.in/Paris?format=3"})',
    [gpt]:
      'expected weather({city: /^paris$/i}); called weather({city: "Paris, France"}) (city: expected /^paris$/i, got "Paris, France")',
  }
  const trial = (caseName: string, model: string, run: number, failed: boolean, durationMs: number): GradedTrial => ({
    case: caseName,
    model,
    run,
    turns: [],
    durationMs,
    tokens: { input: 11_800, output: 60, reasoning: model === gpt ? 120 : 0, cacheRead: 0, cacheWrite: 0 },
    cost: model === gpt ? 0.0152 : 0.0363,
    grade: { pass: !failed, reasons: failed ? [reasons[model] ?? ""] : [] },
  })
  const trials: GradedTrial[] = []
  for (const model of [sonnet, gpt]) {
    for (let run = 1; run <= 5; run++) {
      const failed = model === sonnet ? run >= 4 : run === 5
      trials.push(trial("weather: does its job", model, run, failed, model === gpt ? 6100 : 3900))
      trials.push(trial("weather: not called for small talk", model, run, false, 2100))
    }
  }
  // Seven days before, every trial passed with a longer description.
  const longer = { ...weather, description: "Current weather for a city. Use it whenever the user asks about weather." }
  const passing = trials.map((one) => ({ ...one, grade: { pass: true, reasons: [] } }))
  const before: EvalRun = {
    id: "before",
    startedAt: "2026-11-30T09:12:00.000Z",
    durationMs: 30_000,
    results: summarizeTrials(cases, passing, { [sonnet]: [longer], [gpt]: [longer] }),
  }
  const run: EvalRun = {
    id: "now",
    startedAt: "2026-12-01T09:30:00.000Z",
    durationMs: 31_400,
    opencodeVersion: "1.18.34",
    results: summarizeTrials(cases, trials, { [sonnet]: [weather], [gpt]: [weather] }),
  }
  const history = before.results.map((result) => historyEntry(before, result))
  const printed = formatEvalTable(run, compareWithPrevious(run.results, history), { color: false, width: 100 })
  const shown = blocks("").find((block) => block.startsWith("tool-tester eval:"))
  expect(shown?.trimEnd()).toBe(printed.trimEnd())
})

test("every JSON block of docs/evals.md parses", () => {
  const json = blocks("json")
  expect(json.length).toBeGreaterThan(2)
  for (const block of json) expect(() => JSON.parse(block), block).not.toThrow()
})
