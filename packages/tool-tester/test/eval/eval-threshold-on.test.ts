// `--threshold-on point|lower` (issue 37): the threshold may judge a pass rate by its 95% interval's
// lower bound, so a gate needs runs enough to show the rate; `point` stays the default.
import { describe, expect, test } from "vitest"
import { belowThreshold, parseThreshold, parseThresholdOn, thresholdVerdict } from "../../src/cli/commands/eval.ts"
import { summarizeTrials } from "../../src/eval/report/index.ts"
import { runCli } from "../helpers.ts"
import { cases, failedTrial, tools, trial } from "./_report-sample.ts"

function resultOf(passed: number, runs: number) {
  const trials = Array.from({ length: runs }, (_, index) =>
    index < passed
      ? trial({ case: "weather-paris", model: "keyword/model", run: index + 1 })
      : failedTrial({ case: "weather-paris", model: "keyword/model", run: index + 1 }),
  )
  return summarizeTrials(cases, trials, tools)
}

describe("--threshold-on", () => {
  test("point (the default) compares the pass rate; lower compares the interval's lower bound", () => {
    expect(parseThresholdOn(undefined)).toBe("point")
    const fiveOfFive = resultOf(5, 5)
    expect(belowThreshold(fiveOfFive, 0.8, "point")).toEqual([])
    // 5/5 is 57-100%: not enough runs to show 80%.
    expect(belowThreshold(fiveOfFive, 0.8, "lower").map((result) => result.passed)).toEqual([5])
    // 16/16 is 81-100%: enough.
    expect(belowThreshold(resultOf(16, 16), 0.8, "lower")).toEqual([])
  })

  test("the verdict line: a run with no case run met no threshold; else all met it, or which fell below", () => {
    expect(thresholdVerdict([], [], 0.8, "point")).toBe("no case ran, so none was held to the threshold (80%)")
    const fiveOfFive = resultOf(5, 5)
    expect(thresholdVerdict(fiveOfFive, [], 0.8, "point")).toBe("every case met the threshold (80%)")
    expect(thresholdVerdict(fiveOfFive, belowThreshold(fiveOfFive, 0.8, "lower"), 0.8, "lower")).toBe(
      "1 of 1 case x model results are below the threshold (80%, on the 95% interval's lower bound): weather-paris on keyword/model 5/5 (lower bound 57%)",
    )
  })

  test("without --threshold it is a usage error: alone it would gate nothing", async () => {
    const result = await runCli(["eval", "--threshold-on", "lower"], { cwd: process.cwd() })
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain(
      "--threshold-on lower says what --threshold compares, and no --threshold was given: add --threshold RATE",
    )
  })

  test("an unknown value is a usage error naming the choices, before anything runs", async () => {
    const result = await runCli(["eval", "--threshold", "0.8", "--threshold-on", "upper"], { cwd: process.cwd() })
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain("--threshold-on upper is not one of point, lower")
  })
})

describe("--threshold", () => {
  test("takes a rate, a percentage or a number of percent, written in decimal digits", () => {
    expect(parseThreshold("0.8")).toBe(0.8)
    expect(parseThreshold(".5")).toBe(0.5)
    expect(parseThreshold("80%")).toBe(0.8)
    expect(parseThreshold("80")).toBe(0.8)
    expect(parseThreshold("0")).toBe(0)
  })

  test("a bare % (Number reads it as 0, which turned the gate off) or a number not in decimal digits is a usage error", () => {
    for (const text of ["%", " %", "0x50", "0b1", "1e1", "+50", "-0", "Infinity"]) {
      expect(() => parseThreshold(text), text).toThrow("is not a pass rate: give 0.8, 80% or 80")
    }
  })
})
