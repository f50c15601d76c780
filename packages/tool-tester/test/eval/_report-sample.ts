// Cases, trials and tools as the runner and grading would hand them to the report, for the report's tests.
import { summarizeTrials } from "../../src/eval/report/index.ts"
import type { EvalCase, EvalRun, GradedTrial, HistoryEntry, ToolSnapshot } from "../../src/eval/types.ts"

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

export const bashTool: ToolSnapshot = {
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
