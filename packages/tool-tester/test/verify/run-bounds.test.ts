// verify's bounds of opencode's runs, from recorded durations (no clock involved): a run that may
// hang waits `factor` times the slowest recent run that ended on its own, within a floor and a
// ceiling; before any run ended, the unmeasured bound; a run not expected to hang keeps its own
// bound unless the machine is slower than that allows.
import { describe, expect, test } from "vitest"
import { defaultBoundRule, defaultRunBoundMs, RunBounds } from "../../src/verify/run-bounds.ts"

describe("verify's run bounds", () => {
  test("before any run ended on its own, a run that may hang gets the unmeasured bound", () => {
    const bounds = new RunBounds()
    expect(bounds.reference()).toBeUndefined()
    expect(bounds.hangBoundMs()).toBe(defaultBoundRule.unmeasuredMs)
    expect(bounds.runBoundMs()).toBe(defaultRunBoundMs)
  })

  test("a quiet machine: the floor, not the slow default", () => {
    const bounds = new RunBounds()
    bounds.record(4_000)
    bounds.record(5_000)
    expect(bounds.reference()).toBe(5_000)
    expect(bounds.hangBoundMs()).toBe(defaultBoundRule.floorMs)
  })

  test("a loaded machine: factor times the slowest recent run, so a slow start is not called a hang", () => {
    const bounds = new RunBounds({ factor: 2, floorMs: 15_000 })
    for (const ms of [30_000, 44_000, 38_000]) bounds.record(ms)
    expect(bounds.hangBoundMs()).toBe(88_000)
    // Runs not expected to hang keep their own bound until the machine needs more.
    expect(bounds.runBoundMs(180_000)).toBe(180_000)
    bounds.record(120_000)
    expect(bounds.runBoundMs(180_000)).toBe(240_000)
  })

  test("only the recent runs count: a machine that got quiet again shortens the bound", () => {
    const bounds = new RunBounds({ window: 3, factor: 2, floorMs: 1_000 })
    bounds.record(60_000)
    expect(bounds.hangBoundMs()).toBe(120_000)
    for (const ms of [10_000, 11_000, 12_000]) bounds.record(ms)
    expect(bounds.reference()).toBe(12_000)
    expect(bounds.hangBoundMs()).toBe(24_000)
  })

  test("never past the ceiling", () => {
    const bounds = new RunBounds({ ceilingMs: 100_000 })
    bounds.record(400_000)
    expect(bounds.hangBoundMs()).toBe(100_000)
  })

  test("the rule given replaces only what it names", () => {
    expect(new RunBounds({ factor: 5 }).rule).toEqual({ ...defaultBoundRule, factor: 5 })
  })
})
