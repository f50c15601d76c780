// `tool-tester verify`'s work: every run of the probe sets through the given opencode binary (with
// the scripted mock model) and through tool-tester, compared check by check.
//
// Runs go `concurrency` at once, in probe order, and the runs that may hang opencode on purpose
// (`mayHang` in probe.json: plugin-client runs that hang 1.18.34; docs/cli.md#verify counts them)
// have as many lanes again of their own: a hung opencode waits idle, so its wait need not hold up
// the runs that work. Each `opencode run` is bounded by how long opencode takes on this machine now
// (run-bounds.ts): the runs that end on their own are the measure, so a quiet machine does not wait
// long for a hang and a loaded one does not call a slow start a hang. Each replay is bounded too.
//
// One `opencode serve` per probe run would not save anything: every run has its own project or
// config (plugins, permissions, default agent), which opencode reads once per served instance, and
// a served session lacks `opencode run`'s permission rules, which the goldens record
// (docs/opencode-contract.md#driving-the-binary).

import { ToolTesterError } from "../errors.ts"
import { type Check, check } from "./behaviours.ts"
import { type CompareOptions, compareRun, defaultCompareTimeoutMs } from "./compare-run.ts"
import { observeRun } from "./observe-run.ts"
import type { ProbeRun, ProbeSet } from "./probe-set.ts"
import { type BoundRule, RunBounds } from "./run-bounds.ts"

export interface VerifyOptions extends CompareOptions {
  /** The opencode binary the probes run through. */
  opencode: string
  probes: ProbeSet[]
  /** Probe runs at once (default 4); the runs that may hang get as many lanes again. */
  concurrency?: number
  /** The rule of opencode's bounds (default: run-bounds.ts's). */
  bounds?: Partial<BoundRule>
  signal?: AbortSignal
  /** Told after each probe run, with how many are done of how many, and how many differed so far. */
  onRun?: (progress: { done: number; total: number; differing: number; last: string }) => void
}

/** How long one probe run took, on each side. */
interface RunTiming {
  set: string
  run: string
  /** opencode's side: the copy, the sandbox and `opencode run`, in ms. */
  opencodeMs: number
  /** tool-tester's side: the replay and the comparison, in ms. */
  toolTesterMs: number
  /** opencode's bound when its run ended, in ms. */
  boundMs: number
  /** opencode was stopped at its bound. */
  hung: boolean
}

export interface VerifyRuns {
  /** Every check of every run, in probe and run order. */
  checks: Check[]
  /** Every run's timing, in probe and run order. */
  runs: RunTiming[]
  /** The whole verify, in ms. */
  durationMs: number
  /** The lanes: runs at once, and the extra ones of the runs that may hang. */
  concurrency: number
}

const defaultConcurrency = 4

/** Every check of every run of `probes`, and how long each took. */
export async function runVerify(options: VerifyOptions): Promise<VerifyRuns> {
  const startedAt = performance.now()
  const runs = options.probes.flatMap((probe) => probe.runs.map((run) => ({ probe, run })))
  const ordinary = runs.flatMap((entry, index) => (entry.run.mayHang === true ? [] : [index]))
  const mayHang = runs.flatMap((entry, index) => (entry.run.mayHang === true ? [index] : []))
  const bounds = new RunBounds(options.bounds)
  const checks: Check[][] = new Array(runs.length)
  const timings: RunTiming[] = new Array(runs.length)
  let done = 0
  let differing = 0
  const worker = async (queues: number[][]) => {
    for (;;) {
      options.signal?.throwIfAborted()
      const index = queues.find((queue) => queue.length > 0)?.shift()
      if (index === undefined) return
      const { probe, run } = runs[index]!
      const outcome = await verifyRun(probe, run, bounds, options)
      checks[index] = outcome.checks
      timings[index] = outcome.timing
      done++
      if (outcome.checks.some((entry) => !entry.agree)) differing++
      options.onRun?.({ done, total: runs.length, differing, last: `${probe.set}/${run.name}` })
    }
  }
  const concurrency = Math.max(1, options.concurrency ?? defaultConcurrency)
  const lanes = [
    ...Array.from({ length: Math.min(concurrency, runs.length) }, () => worker([ordinary, mayHang])),
    ...Array.from({ length: Math.min(concurrency, mayHang.length) }, () => worker([mayHang])),
  ]
  await Promise.all(lanes)
  return {
    checks: checks.flat(),
    runs: timings,
    durationMs: Math.round(performance.now() - startedAt),
    concurrency,
  }
}

// --- internal ---

async function verifyRun(
  probe: ProbeSet,
  run: ProbeRun,
  bounds: RunBounds,
  options: VerifyOptions,
): Promise<{ checks: Check[]; timing: RunTiming }> {
  const startedAt = performance.now()
  const boundNow = () => (run.mayHang === true ? bounds.hangBoundMs() : bounds.runBoundMs(run.timeoutMs))
  const outcome = (checks: Check[], opencode: { ms: number; boundMs: number; hung: boolean }) => ({
    checks,
    timing: {
      set: probe.set,
      run: run.name,
      opencodeMs: Math.round(opencode.ms),
      toolTesterMs: Math.round(performance.now() - startedAt - opencode.ms),
      boundMs: opencode.boundMs,
      hung: opencode.hung,
    },
  })
  let observed: Awaited<ReturnType<typeof observeRun>>
  try {
    observed = await observeRun({
      directory: probe.directory,
      run,
      opencode: options.opencode,
      timeoutMs: boundNow,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    })
  } catch (error) {
    if (options.signal?.aborted || !ToolTesterError.isInstance(error)) throw error
    // opencode could not be driven through this run (it failed before the model, a port...): one difference.
    const where = { behaviour: probe.behaviour, set: probe.set, run: run.name, subject: "the run" }
    const failed = check(where, `failed: ${error.code}: ${error.message}`, "runs")
    return outcome([failed], { ms: performance.now() - startedAt, boundMs: boundNow(), hung: false })
  }
  const opencode = { ms: performance.now() - startedAt, boundMs: boundNow(), hung: observed.hung === true }
  // A run that ended on its own measures how long opencode takes here now.
  if (!opencode.hung) bounds.record(opencode.ms)
  const checks = await compareRun(probe, observed, {
    ...(options.engine === undefined ? {} : { engine: options.engine }),
    ...(options.engineBinary === undefined ? {} : { engineBinary: options.engineBinary }),
    // tool-tester's side starts an engine: on a slow machine it gets longer too.
    timeoutMs: options.timeoutMs ?? Math.max(defaultCompareTimeoutMs, bounds.hangBoundMs()),
  })
  return outcome(checks, opencode)
}
