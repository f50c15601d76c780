import { describe, expect, test } from "vitest"
import { namedToolIds, resultKey, summarizeTrials } from "../../src/eval/report/index.ts"
import { cases, failedTrial, forecastTool, tools, trial, weatherTool } from "./_report-sample.ts"

describe("summarizeTrials", () => {
  test("groups trials by case and model, in the cases' order, counting passes", () => {
    const results = summarizeTrials(
      cases,
      [
        trial({ case: "forecast-then-weather", model: "keyword/model", run: 1 }),
        failedTrial({ case: "weather-paris", model: "keyword/model", run: 2 }),
        trial({ case: "weather-paris", model: "mock/scripted", run: 1 }),
        trial({ case: "weather-paris", model: "keyword/model", run: 1 }),
      ],
      tools,
    )
    expect(results.map((result) => [result.case, result.model, result.passed, result.runs])).toEqual([
      ["weather-paris", "keyword/model", 1, 2],
      ["weather-paris", "mock/scripted", 1, 1],
      ["forecast-then-weather", "keyword/model", 1, 1],
    ])
    expect(results[0]?.trials.map((one) => one.run)).toEqual([1, 2])
  })

  test("sums tokens, cost and time over the trials that reported them", () => {
    const tokens = { input: 100, output: 10, reasoning: 5, cacheRead: 50, cacheWrite: 1 }
    const [result] = summarizeTrials(
      cases,
      [
        trial({ case: "weather-paris", model: "keyword/model", run: 1, tokens, cost: 0.5, durationMs: 1500 }),
        trial({ case: "weather-paris", model: "keyword/model", run: 2, durationMs: 2500 }),
        trial({ case: "weather-paris", model: "keyword/model", run: 3, tokens, cost: 0.25, durationMs: 1000 }),
      ],
      tools,
    )
    expect(result?.tokens).toEqual({ input: 200, output: 20, reasoning: 10, cacheRead: 100, cacheWrite: 2 })
    expect(result?.cost).toBe(0.75)
    expect(result?.durationMs).toBe(5000)
  })

  test("leaves tokens and cost out when no trial reported them", () => {
    const [result] = summarizeTrials(cases, [trial({ case: "weather-paris", model: "keyword/model", run: 1 })], tools)
    expect(result).not.toHaveProperty("tokens")
    expect(result).not.toHaveProperty("cost")
  })

  test("keeps the tools the case names that the model was offered, in every turn", () => {
    const results = summarizeTrials(
      cases,
      [
        trial({ case: "weather-paris", model: "keyword/model", run: 1 }),
        trial({ case: "weather-paris", model: "mock/scripted", run: 1 }),
        trial({ case: "forecast-then-weather", model: "keyword/model", run: 1 }),
        trial({ case: "forecast-then-weather", model: "mock/scripted", run: 1 }),
      ],
      tools,
    )
    const named = (caseName: string, model: string) =>
      results.find((result) => resultKey(result.case, result.model) === resultKey(caseName, model))?.tools
    // webfetch is named but not offered; "*" is no tool.
    expect(named("weather-paris", "keyword/model")?.map((tool) => tool.id)).toEqual(["weather", "bash"])
    expect(named("weather-paris", "mock/scripted")?.[0]?.description).toBe("Weather now")
    expect(named("forecast-then-weather", "keyword/model")).toEqual([forecastTool, weatherTool])
    expect(named("forecast-then-weather", "mock/scripted")?.map((tool) => tool.id)).toEqual(["weather"])
  })

  test("a trial of a case not given still gets a result, with no tools", () => {
    const [result] = summarizeTrials([], [trial({ case: "other", model: "keyword/model", run: 1 })], tools)
    expect(result).toMatchObject({ case: "other", runs: 1, passed: 1, tools: [] })
  })

  test("namedToolIds lists expected and forbidden tools once each", () => {
    expect(namedToolIds(cases[0] ?? { name: "", prompt: "" })).toEqual(["weather", "bash", "webfetch"])
    expect(namedToolIds(cases[1] ?? { name: "", prompt: "" })).toEqual(["forecast", "weather"])
  })
})
