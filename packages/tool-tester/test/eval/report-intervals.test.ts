// Pass rates with their spread (issue 37): the 95% Wilson interval of each count, Fisher's exact
// test on a change since the previous run, and about how many runs would tell two rates apart;
// the table, the HTML page and the comparison say which changes are beyond noise.
import { describe, expect, test } from "vitest"
import {
  changeSignificance,
  compareWithPrevious,
  fisherExact,
  formatEvalTable,
  renderEvalHtml,
  resultKey,
  runsToTell,
  summarizeTrials,
  totalsOf,
  wilsonInterval,
} from "../../src/eval/report/index.ts"
import type { EvalRun, HistoryEntry } from "../../src/eval/types.ts"
import { cases, failedTrial, tools, trial } from "./_report-sample.ts"

const model = "keyword/model"

function runWith(passed: number, runs: number): EvalRun {
  const trials = Array.from({ length: runs }, (_, index) =>
    index < passed
      ? trial({ case: "weather-paris", model, run: index + 1 })
      : failedTrial({ case: "weather-paris", model, run: index + 1 }),
  )
  return {
    id: "now",
    startedAt: "2026-12-02T10:00:00.000Z",
    durationMs: 1000,
    results: summarizeTrials(cases, trials, tools),
  }
}

function previous(passed: number, runs: number): HistoryEntry {
  return {
    runId: "before",
    startedAt: "2026-12-01T10:00:00.000Z",
    case: "weather-paris",
    model,
    runs,
    passed,
    tools: [],
    failures: [],
  }
}

describe("wilsonInterval", () => {
  test("matches published values", () => {
    const eight = wilsonInterval(8, 10)
    expect(eight.low).toBeCloseTo(0.49, 3)
    expect(eight.high).toBeCloseTo(0.9434, 3)
    const none = wilsonInterval(0, 5)
    expect(none.low).toBe(0)
    expect(none.high).toBeCloseTo(0.4345, 3)
    const all = wilsonInterval(5, 5)
    expect(all.low).toBeCloseTo(0.5655, 3)
    expect(all.high).toBe(1)
  })

  test("no runs say nothing: the whole range", () => {
    expect(wilsonInterval(0, 0)).toEqual({ low: 0, high: 1 })
  })
})

describe("fisherExact", () => {
  test("matches known values", () => {
    expect(fisherExact(1, 2, 0, 2)).toBeCloseTo(1, 10)
    expect(fisherExact(20, 20, 0, 20)).toBeLessThan(1e-10)
    expect(fisherExact(20, 20, 0, 20)).toBeCloseTo(2 / 137846528820, 20)
    // Fisher's tea tasting: 3 of 4 against 1 of 4, two-sided p = 34/70.
    expect(fisherExact(3, 4, 1, 4)).toBeCloseTo(34 / 70, 10)
    expect(fisherExact(2, 2, 0, 2)).toBeCloseTo(1 / 3, 10)
  })

  test("is symmetric in the two sides", () => {
    expect(fisherExact(7, 12, 2, 9)).toBeCloseTo(fisherExact(2, 9, 7, 12), 12)
  })
})

describe("runsToTell", () => {
  test("the runs at which the same rates become significant", () => {
    const runs = runsToTell(1, 2, 0, 2)
    expect(runs).toBeDefined()
    // At that many runs each the same rates are beyond noise, one fewer they are not.
    const tells = (n: number) => fisherExact(Math.round(n / 2), n, 0, n) < 0.05
    expect(tells(runs!)).toBe(true)
    expect(tells(runs! - 1)).toBe(false)
  })

  test("the fewest runs from which on every size tells: 5/5 against 4/5 tells at 23 but not at 25 to 27, so 28", () => {
    const tells = (n: number) => fisherExact(n, n, Math.round(0.8 * n), n) < 0.05
    expect(tells(23)).toBe(true)
    expect([25, 26, 27].map(tells)).toEqual([false, false, false])
    expect(runsToTell(5, 5, 4, 5)).toBe(28)
    for (let n = 28; n <= 120; n++) expect(tells(n)).toBe(true)
    // 8/10 against 6/10: 47 tells first, 53 does not, 54 and every size after it do.
    const tellsEighty = (n: number) => fisherExact(Math.round(0.8 * n), n, Math.round(0.6 * n), n) < 0.05
    expect([tellsEighty(47), tellsEighty(53)]).toEqual([true, false])
    expect(runsToTell(8, 10, 6, 10)).toBe(54)
    for (let n = 54; n <= 200; n++) expect(tellsEighty(n)).toBe(true)
  })

  test("equal rates: no number of runs tells them apart", () => {
    expect(runsToTell(3, 4, 6, 8)).toBeUndefined()
  })
})

describe("the comparison with the previous run", () => {
  test("1/2 -> 0/2 is within noise, and says how many runs would tell", () => {
    const run = runWith(0, 2)
    const change = compareWithPrevious(run.results, [previous(1, 2)]).get(resultKey("weather-paris", model))
    expect(change?.significance.beyondNoise).toBe(false)
    expect(change?.significance.pValue).toBeCloseTo(1, 10)
    expect(change?.significance.runsToTell).toBe(runsToTell(1, 2, 0, 2))
    const table = formatEvalTable(run, compareWithPrevious(run.results, [previous(1, 2)]), { color: false, width: 200 })
    expect(table).toContain("1/2 -> 0/2 within noise")
    expect(table).toContain(
      `1/2 -> 0/2 is within noise (Fisher's exact test, p=1.00): about ${runsToTell(1, 2, 0, 2)} runs each would tell.`,
    )
  })

  test("20/20 -> 0/20 is beyond noise", () => {
    const run = runWith(0, 20)
    const changes = compareWithPrevious(run.results, [previous(20, 20)])
    const change = changes.get(resultKey("weather-paris", model))
    expect(change?.significance).toEqual({ pValue: expect.any(Number), beyondNoise: true })
    expect(change?.significance.pValue).toBeLessThan(1e-10)
    expect(formatEvalTable(run, changes, { color: false, width: 200 })).toContain(
      "20/20 -> 0/20 is beyond noise (Fisher's exact test, p<0.001).",
    )
  })

  test("the same rate is not called a change", () => {
    expect(changeSignificance({ passed: 2, runs: 2 }, { passed: 2, runs: 2 }).beyondNoise).toBe(false)
    const run = runWith(2, 2)
    const table = formatEvalTable(run, compareWithPrevious(run.results, [previous(2, 2)]), { color: false, width: 200 })
    expect(table).toContain("2/2 -> 2/2 same rate")
  })
})

describe("intervals in the reports", () => {
  test("each result, and the totals by case, model and in total, carry their interval", () => {
    const run = runWith(8, 10)
    const [result] = run.results
    expect(result?.interval.low).toBeCloseTo(0.49, 3)
    const totals = totalsOf(run.results)
    expect(totals.total).toMatchObject({ passed: 8, runs: 10 })
    expect(totals.byCase).toEqual([{ case: "weather-paris", ...totals.total }])
    expect(totals.byModel).toEqual([{ model, ...totals.total }])
  })

  test("the table and the page show 8/10 with 49-94%", () => {
    const run = runWith(8, 10)
    const table = formatEvalTable(run, new Map(), { color: false, width: 200 })
    expect(table).toContain("8/10 (49-94%)")
    expect(table).toContain("8/10 (49-94%) trials passed")
    const page = renderEvalHtml(run, new Map(), [])
    expect(page).toContain('<span class="interval" title="95% interval">49-94%</span>')
    expect(page).toContain("8/10 trials passed (95% interval 49-94%)")
  })
})
