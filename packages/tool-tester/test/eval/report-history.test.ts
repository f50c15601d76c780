import { appendFileSync, readFileSync, writeFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, test } from "vitest"
import { addToHistory } from "../../src/eval/run-project.ts"
import type { EvalRun } from "../../src/eval/types.ts"
import {
  appendHistory,
  compareWithPrevious,
  defaultHistoryFile,
  HISTORY_LIMITS,
  readHistory,
  resultKey,
  summarizeTrials,
} from "../../src/eval/report/index.ts"
import { useTmpDir } from "../helpers.ts"
import { cases, failedTrial, tools, trial, weatherTool } from "./_report-sample.ts"

function runOf(
  id: string,
  startedAt: string,
  trials = [trial({ case: "weather-paris", model: "keyword/model", run: 1 })],
): EvalRun {
  return { id, startedAt, durationMs: 10, results: summarizeTrials(cases, trials, tools) }
}

describe("the history file", () => {
  test("lives in the project's .opencode/evals folder", () => {
    expect(defaultHistoryFile(path.join("some", "project"))).toBe(
      path.join("some", "project", ".opencode", "evals", "history.jsonl"),
    )
  })

  test("a missing file is an empty history", async () => {
    expect(await readHistory(path.join(useTmpDir(), "nothing", "history.jsonl"))).toEqual([])
  })

  test("appending creates the folder and adds one line per result, keeping earlier lines byte for byte", async () => {
    const file = defaultHistoryFile(useTmpDir())
    await appendHistory(file, runOf("run-1", "2026-11-30T10:00:00.000Z"))
    const first = readFileSync(file, "utf8")
    expect(first.split("\n")).toHaveLength(2)
    const two = [
      trial({ case: "weather-paris", model: "keyword/model", run: 1 }),
      trial({ case: "weather-paris", model: "mock/scripted", run: 1 }),
    ]
    await appendHistory(file, runOf("run-2", "2026-12-01T10:00:00.000Z", two))
    const second = readFileSync(file, "utf8")
    expect(second.startsWith(first)).toBe(true)
    expect(second.trimEnd().split("\n")).toHaveLength(3)
    const entries = await readHistory(file)
    expect(entries.map((entry) => [entry.runId, entry.model])).toEqual([
      ["run-1", "keyword/model"],
      ["run-2", "keyword/model"],
      ["run-2", "mock/scripted"],
    ])
    expect(entries[0]).toEqual({
      runId: "run-1",
      startedAt: "2026-11-30T10:00:00.000Z",
      case: "weather-paris",
      model: "keyword/model",
      runs: 1,
      passed: 1,
      tools: [weatherTool, tools["keyword/model"]?.[0]],
      failures: [],
    })
  })

  test("corrupt lines are skipped and the others read", async () => {
    const file = defaultHistoryFile(useTmpDir())
    await appendHistory(file, runOf("run-1", "2026-11-30T10:00:00.000Z"))
    appendFileSync(file, '{"runId": "cut off mid-wri\nnot json at all\n[1,2]\n{"runId":"x","case":"c"}\n\n')
    await appendHistory(file, runOf("run-2", "2026-12-01T10:00:00.000Z"))
    expect((await readHistory(file)).map((entry) => entry.runId)).toEqual(["run-1", "run-2"])
  })

  test("reads lines ended the Windows way", async () => {
    const file = defaultHistoryFile(useTmpDir())
    await appendHistory(file, runOf("run-1", "2026-11-30T10:00:00.000Z"))
    writeFileSync(file, readFileSync(file, "utf8").replace(/\n/g, "\r\n"))
    await appendHistory(file, runOf("run-2", "2026-12-01T10:00:00.000Z"))
    expect((await readHistory(file)).map((entry) => entry.runId)).toEqual(["run-1", "run-2"])
  })

  test("a last line cut short does not swallow the next entry", async () => {
    const file = defaultHistoryFile(useTmpDir())
    await appendHistory(file, runOf("run-1", "2026-11-30T10:00:00.000Z"))
    appendFileSync(file, '{"runId":"run-half","startedAt":"2026')
    await appendHistory(file, runOf("run-2", "2026-12-01T10:00:00.000Z"))
    expect((await readHistory(file)).map((entry) => entry.runId)).toEqual(["run-1", "run-2"])
  })

  test("an entry keeps at most five distinct failures, each cut short", async () => {
    const file = defaultHistoryFile(useTmpDir())
    const base = { case: "weather-paris", model: "keyword/model" }
    const trials = [
      ...Array.from({ length: 8 }, (_, index) =>
        failedTrial({ ...base, run: index + 1 }, `reason ${index}\n${"x".repeat(1000)}`),
      ),
      failedTrial({ ...base, run: 9 }, "reason 0"),
      failedTrial({ ...base, run: 10 }, "reason 0"),
    ]
    await appendHistory(file, runOf("run-1", "2026-11-30T10:00:00.000Z", trials))
    const [entry] = await readHistory(file)
    expect(entry?.failures).toHaveLength(HISTORY_LIMITS.failures)
    expect(entry?.failures[0]?.startsWith("reason 0 xxx")).toBe(true)
    for (const failure of entry?.failures ?? [])
      expect(failure.length).toBeLessThanOrEqual(HISTORY_LIMITS.failureLength)
    expect(readFileSync(file, "utf8").trimEnd().split("\n")).toHaveLength(1)
  })

  test("a trial that ended in an error is kept as its code and message", async () => {
    const file = defaultHistoryFile(useTmpDir())
    const errored = trial({
      case: "weather-paris",
      model: "keyword/model",
      run: 1,
      error: { code: "RATE_LIMITED", message: "429 Too Many Requests" },
      grade: { pass: false, reasons: [] },
    })
    await appendHistory(file, runOf("run-1", "2026-11-30T10:00:00.000Z", [errored]))
    expect((await readHistory(file))[0]?.failures).toEqual(["RATE_LIMITED: 429 Too Many Requests"])
  })
})

describe("compareWithPrevious", () => {
  test("finds the latest earlier run of the same case and model, and diffs a description edit", async () => {
    const file = defaultHistoryFile(useTmpDir())
    const old = runOf("run-1", "2026-11-29T10:00:00.000Z")
    await appendHistory(file, old)
    await appendHistory(file, runOf("run-2", "2026-11-30T10:00:00.000Z"))
    const edited = {
      "keyword/model": [{ ...weatherTool, description: "Current weather for a city.\nUse it for any city." }],
    }
    const trials = [failedTrial({ case: "weather-paris", model: "keyword/model", run: 1 })]
    const now: EvalRun = {
      id: "run-3",
      startedAt: "2026-12-01T10:00:00.000Z",
      durationMs: 1,
      results: summarizeTrials(cases, trials, edited),
    }
    await appendHistory(file, now)

    const changes = compareWithPrevious(now.results, await readHistory(file), { runId: "run-3" })
    const change = changes.get(resultKey("weather-paris", "keyword/model"))
    expect(change?.previous.runId).toBe("run-2")
    expect(change?.toolChanges).toEqual([
      {
        id: "weather",
        diff: [
          "description",
          "- Current weather for a city",
          "+ Current weather for a city.",
          "+ Use it for any city.",
        ].join("\n"),
      },
    ])
  })

  test("diffs the parameters as pretty JSON, with context around the change", () => {
    const before = runOf("run-1", "2026-11-30T10:00:00.000Z")
    const schema = {
      type: "object",
      properties: { city: { type: "string", description: "City name, in English" } },
      required: ["city"],
    }
    const after = summarizeTrials(cases, [trial({ case: "weather-paris", model: "keyword/model", run: 1 })], {
      "keyword/model": [{ ...weatherTool, parameters: schema }],
    })
    const history = before.results.map((result) => ({
      runId: before.id,
      startedAt: before.startedAt,
      case: result.case,
      model: result.model,
      runs: 1,
      passed: 1,
      tools: result.tools,
      failures: [],
    }))
    const [only] =
      compareWithPrevious(after, history).get(resultKey("weather-paris", "keyword/model"))?.toolChanges ?? []
    expect(only?.diff.split("\n")).toEqual([
      "parameters",
      "  …",
      '      "city": {',
      '        "type": "string",',
      '-       "description": "City name"',
      '+       "description": "City name, in English"',
      "      }",
      "    },",
      "  …",
    ])
  })

  test("no entry for a case and model: no change; same tools: no tool change", () => {
    const run = runOf("run-2", "2026-12-01T10:00:00.000Z")
    expect(compareWithPrevious(run.results, []).size).toBe(0)
    const earlier = runOf("run-1", "2026-11-30T10:00:00.000Z")
    const history = earlier.results.map((result) => ({
      runId: "run-1",
      startedAt: earlier.startedAt,
      case: result.case,
      model: result.model,
      runs: 2,
      passed: 2,
      tools: result.tools,
      failures: [],
    }))
    const change = compareWithPrevious(run.results, history).get(resultKey("weather-paris", "keyword/model"))
    expect(change).toEqual({
      previous: history[0],
      toolChanges: [],
      significance: { pValue: expect.closeTo(1, 10), beyondNoise: false },
    })
  })

  test("the latest entry wins by time, whatever the order of the lines", () => {
    const results = runOf("now", "2026-12-01T10:00:00.000Z").results
    const entry = (runId: string, startedAt: string) => ({
      runId,
      startedAt,
      case: "weather-paris",
      model: "keyword/model",
      runs: 1,
      passed: 1,
      tools: [],
      failures: [],
    })
    const history = [entry("b", "2026-11-30T10:00:00.000Z"), entry("a", "2026-11-29T10:00:00.000Z")]
    expect(compareWithPrevious(results, history).get(resultKey("weather-paris", "keyword/model"))?.previous.runId).toBe(
      "b",
    )
  })

  test("a history that cannot take the run once its trials are done is a problem beside the run, not an error that loses it", async () => {
    const folder = useTmpDir()
    const file = path.join(folder, "evals", "history.jsonl")
    const first = await addToHistory(file, runOf("run-1", "2026-12-01T10:00:00.000Z"))
    expect(first.problem).toBeUndefined()
    expect(first.before).toEqual([])
    expect(first.history.map((entry) => entry.runId)).toEqual(["run-1"])
    // The folder became a file during the run: appending fails only now.
    const blocked = path.join(folder, "blocked")
    writeFileSync(blocked, "not a folder")
    const second = await addToHistory(path.join(blocked, "history.jsonl"), runOf("run-2", "2026-12-01T11:00:00.000Z"))
    expect(second.history).toEqual([])
    expect(second.problem).toMatchObject({
      code: "USAGE",
      message: expect.stringMatching(
        /^the history file .*history\.jsonl could not be read or added to after the run \(.*\); this run is not in it/,
      ),
    })
  })
})
