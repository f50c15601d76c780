// Cases, trials and tools as the runner and grading would hand them to the report, for the report's tests.
import { historyEntry, summarizeTrials } from "../../src/eval/report/index.ts"
import type { EvalCase, ToolSnapshot } from "../../src/eval-cases/types.ts"
import type { EvalRun, GradedTrial, HistoryEntry } from "../../src/eval/types.ts"

export const weatherTool: ToolSnapshot = {
  id: "weather",
  description: "Current weather for a city",
  parameters: {
    type: "object",
    properties: { city: { type: "string", description: "City name" } },
    required: ["city"],
  },
}

export const forecastTool: ToolSnapshot = {
  id: "forecast",
  description: "Weather forecast for the next days",
  parameters: { type: "object", properties: { city: { type: "string" }, days: { type: "number" } } },
}

const bashTool: ToolSnapshot = {
  id: "bash",
  description: "Runs a shell command",
  parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
}

export const cases: EvalCase[] = [
  {
    name: "weather-paris",
    prompt: "What is the weather in Paris?",
    expect: { calls: [{ tool: "weather", args: { city: "Paris" } }], notCalled: ["bash", "webfetch", "*"] },
  },
  {
    name: "forecast-then-weather",
    prompt: "Forecast for Oslo",
    expect: { calls: [{ tool: "forecast" }] },
    turns: [{ prompt: "And now?", expect: { calls: [{ tool: "weather" }], notCalled: ["forecast"] } }],
  },
]

export const tools: Record<string, ToolSnapshot[]> = {
  "keyword/model": [bashTool, weatherTool, forecastTool],
  "mock/scripted": [bashTool, { ...weatherTool, description: "Weather now" }],
}

export function trial(overrides: Partial<GradedTrial> & Pick<GradedTrial, "case" | "model" | "run">): GradedTrial {
  return {
    turns: [
      {
        prompt: "What is the weather in Paris?",
        calls: [{ tool: "weather", args: { city: "Paris" }, status: "completed", output: "sunny" }],
        text: "It is sunny in Paris.",
      },
    ],
    durationMs: 1000,
    grade: { pass: true, reasons: [] },
    ...overrides,
  }
}

export function failedTrial(
  base: Pick<GradedTrial, "case" | "model" | "run">,
  reason = 'expected weather({"city":"Paris"}); called bash({"command":"curl wttr.in/Paris"})',
): GradedTrial {
  return trial({
    ...base,
    turns: [
      {
        prompt: "What is the weather in Paris?",
        calls: [{ tool: "bash", args: { command: "curl wttr.in/Paris" }, status: "error", error: "denied" }],
        text: "",
      },
    ],
    grade: { pass: false, reasons: [reason] },
  })
}

/** A run of both cases on two models, and the history of an earlier run whose weather tool had another description. */
export function sampleRun(): { run: EvalRun; history: HistoryEntry[] } {
  const tokens = { input: 1200, output: 30, reasoning: 0, cacheRead: 0, cacheWrite: 0 }
  const trials: GradedTrial[] = [
    trial({ case: "weather-paris", model: "keyword/model", run: 1, tokens, cost: 0.0012, durationMs: 1200 }),
    failedTrial({ case: "weather-paris", model: "keyword/model", run: 2 }),
    failedTrial({ case: "weather-paris", model: "keyword/model", run: 3 }),
    trial({ case: "weather-paris", model: "mock/scripted", run: 1, durationMs: 800 }),
    trial({
      case: "forecast-then-weather",
      model: "keyword/model",
      run: 1,
      error: { code: "RATE_LIMITED", message: "429 Too Many Requests" },
      grade: { pass: false, reasons: [] },
      turns: [],
    }),
  ]
  const run: EvalRun = {
    id: "run-2",
    startedAt: "2026-12-01T19:00:00.000Z",
    durationMs: 4200,
    opencodeVersion: "1.18.34",
    results: summarizeTrials(cases, trials, tools),
  }
  const older = { ...weatherTool, description: "Weather for a city" }
  const history: HistoryEntry[] = run.results.map((result, index) => ({
    runId: "run-1",
    startedAt: "2026-11-30T10:00:00.000Z",
    case: result.case,
    model: result.model,
    runs: 3,
    passed: index === 0 ? 3 : 1,
    tools:
      result.model === "keyword/model"
        ? result.tools.map((tool) => (tool.id === "weather" ? older : tool))
        : result.tools,
    failures: [],
  }))
  return { run, history }
}

/**
 * The run docs/evals.md shows: two starter-like cases on two real model ids, five runs each, after
 * the weather tool's description was shortened; the history holds five earlier runs, all passing
 * with the longer description.
 */
export function docsExample(): { run: EvalRun; history: HistoryEntry[] } {
  const weather: ToolSnapshot = {
    id: "weather",
    description: "Current weather for a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  }
  const docsCases: EvalCase[] = [
    { name: "weather: does its job", prompt: "What's the weather in Paris?", expect: { calls: [{ tool: "weather" }] } },
    {
      name: "weather: not called for small talk",
      prompt: "Thanks, that is all for now.",
      expect: { notCalled: ["weather"] },
    },
  ]
  const sonnet = "anthropic/claude-sonnet-4-5"
  const gpt = "openai/gpt-5"
  const prompt = "What's the weather in Paris?"
  const answered = "It is 18 °C with light rain in Paris."
  const failures: Record<string, { reason: string; turn: GradedTrial["turns"][number] }> = {
    [sonnet]: {
      reason: 'expected weather({city: /^paris$/i}); called webfetch({url: "https://wttr.in/Paris?format=3"})',
      turn: {
        prompt,
        calls: [
          {
            tool: "webfetch",
            args: { url: "https://wttr.in/Paris?format=3" },
            status: "completed",
            output: "Paris: +18°C, light rain",
          },
        ],
        text: answered,
      },
    },
    [gpt]: {
      reason:
        'expected weather({city: /^paris$/i}); called weather({city: "Paris, France"}) (city: expected /^paris$/i, got "Paris, France")',
      turn: {
        prompt,
        calls: [
          { tool: "weather", args: { city: "Paris, France" }, status: "completed", output: "Paris: 18 °C, light rain" },
        ],
        text: answered,
      },
    },
  }
  const trialOf = (caseName: string, model: string, run: number, failed: boolean, durationMs: number): GradedTrial => {
    const smallTalk = caseName === "weather: not called for small talk"
    const failure = failures[model]
    const turn = smallTalk
      ? { prompt: "Thanks, that is all for now.", calls: [], text: "You're welcome!" }
      : failed && failure
        ? failure.turn
        : {
            prompt,
            calls: [
              {
                tool: "weather",
                args: { city: "Paris" },
                status: "completed" as const,
                output: "Paris: 18 °C, light rain",
              },
            ],
            text: answered,
          }
    return {
      case: caseName,
      model,
      run,
      turns: [turn],
      durationMs,
      tokens: { input: 11_800, output: 60, reasoning: model === gpt ? 120 : 0, cacheRead: 0, cacheWrite: 0 },
      cost: model === gpt ? 0.0152 : 0.0363,
      grade: { pass: !failed, reasons: failed && failure ? [failure.reason] : [] },
    }
  }
  const trials: GradedTrial[] = []
  for (const model of [sonnet, gpt]) {
    for (let run = 1; run <= 5; run++) {
      const failed = model === sonnet ? run >= 4 : run === 5
      trials.push(trialOf("weather: does its job", model, run, failed, model === gpt ? 6100 : 3900))
      trials.push(trialOf("weather: not called for small talk", model, run, false, 2100))
    }
  }
  // The five runs before, one a day, every trial passed with a longer description.
  const longer = { ...weather, description: "Current weather for a city. Use it whenever the user asks about weather." }
  const passing = trials.map((one) => ({ ...one, grade: { pass: true, reasons: [] } }))
  const history: HistoryEntry[] = []
  for (let day = 0; day < 5; day++) {
    const before: EvalRun = {
      id: `before-${day}`,
      startedAt: new Date(Date.UTC(2026, 10, 26 + day, 9, 12)).toISOString(),
      durationMs: 30_000,
      results: summarizeTrials(docsCases, passing, { [sonnet]: [longer], [gpt]: [longer] }),
    }
    history.push(...before.results.map((result) => historyEntry(before, result)))
  }
  const run: EvalRun = {
    id: "2026-12-01T09-30-00-7f3a",
    startedAt: "2026-12-01T09:30:00.000Z",
    durationMs: 31_400,
    opencodeVersion: "1.18.34",
    results: summarizeTrials(docsCases, trials, { [sonnet]: [weather], [gpt]: [weather] }),
  }
  return { run, history }
}
