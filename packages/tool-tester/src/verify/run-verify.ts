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
//
// A run one side of which cannot start or crashes (opencode could not be spawned, the engine would
// not come up) is a failed run of its own (failed-run.ts), with its reason: the other runs are still
// compared. Only when no run at all could be compared does verify end with that first error alone,
// and it does not wait for every run to fail to say so: once runs of two sets have failed with the
// same code and none has been compared yet (an engine that never starts fails every run, but only
// after each one's opencode side has run), the runs still going are stopped and that error ends it.

import type { Check } from "./behaviours.ts"
import { type CompareOptions, compareRun, defaultCompareTimeoutMs } from "./compare-run.ts"
import { type FailedRun, failedRun } from "./failed-run.ts"
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
  /** Told after each probe run, with how many are done of how many, and how many differed or failed so far. */
  onRun?: (progress: { done: number; total: number; differing: number; failed: number; last: string }) => void
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
  /** The runs that could not be compared (a side failed to start or crashed), in probe and run order. */
  failed: FailedRun[]
  /** Every run's timing, in probe and run order. */
  runs: RunTiming[]
  /** The whole verify, in ms. */
  durationMs: number
  /** The lanes: runs at once, and the extra ones of the runs that may hang. */
  concurrency: number
}

const defaultConcurrency = 4

/**
 * Every check of every run of `probes`, the runs that could not be compared, and how long each took.
 * Throws the first run's error when no run could be compared.
 */
export async function runVerify(options: VerifyOptions): Promise<VerifyRuns> {
  const startedAt = performance.now()
  const runs = options.probes.flatMap((probe) => probe.runs.map((run) => ({ probe, run })))
  const ordinary = runs.flatMap((entry, index) => (entry.run.mayHang === true ? [] : [index]))
  const mayHang = runs.flatMap((entry, index) => (entry.run.mayHang === true ? [index] : []))
  const bounds = new RunBounds(options.bounds)
  const checks: Check[][] = new Array(runs.length)
  const timings: RunTiming[] = new Array(runs.length)
  const failures: Array<{ failed: FailedRun; error: unknown } | undefined> = new Array(runs.length)
  let done = 0
  let differing = 0
  let failed = 0
  // Stops the runs once nothing can be compared (see above); the caller's signal stops them too.
  const giveUp = new AbortController()
  const signal = options.signal === undefined ? giveUp.signal : AbortSignal.any([options.signal, giveUp.signal])
  const failedSets = new Map<string, Set<string>>()
  const worker = async (queues: number[][]) => {
    for (;;) {
      if (giveUp.signal.aborted) return
      options.signal?.throwIfAborted()
      const index = queues.find((queue) => queue.length > 0)?.shift()
      if (index === undefined) return
      const { probe, run } = runs[index]!
      const outcome = await verifyRun(probe, run, bounds, { ...options, signal })
      if (giveUp.signal.aborted) return
      checks[index] = outcome.checks
      timings[index] = outcome.timing
      failures[index] = outcome.failure
      done++
      if (outcome.checks.some((entry) => !entry.agree)) differing++
      if (outcome.failure !== undefined) {
        failed++
        const sets = failedSets.get(outcome.failure.failed.code) ?? new Set()
        failedSets.set(outcome.failure.failed.code, sets.add(probe.set))
        if (failed === done && sets.size >= 2) giveUp.abort()
      }
      options.onRun?.({ done, total: runs.length, differing, failed, last: `${probe.set}/${run.name}` })
    }
  }
  const concurrency = Math.max(1, options.concurrency ?? defaultConcurrency)
  const lanes = [
    ...Array.from({ length: Math.min(concurrency, runs.length) }, () => worker([ordinary, mayHang])),
    ...Array.from({ length: Math.min(concurrency, mayHang.length) }, () => worker([mayHang])),
  ]
  const ended = await Promise.allSettled(lanes)
  options.signal?.throwIfAborted()
  const rejected = ended.find((lane) => lane.status === "rejected")
  if (rejected !== undefined && !giveUp.signal.aborted) throw rejected.reason
  // Nothing could be compared (opencode or the engine cannot start at all): that one error, as it was.
  if (giveUp.signal.aborted || (runs.length > 0 && failures.every((failure) => failure !== undefined))) {
    throw failures.find((failure) => failure !== undefined)!.error
  }
  return {
    checks: checks.flat(),
    failed: failures.flatMap((failure) => (failure === undefined ? [] : [failure.failed])),
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
): Promise<{ checks: Check[]; timing: RunTiming; failure?: { failed: FailedRun; error: unknown } }> {
  const startedAt = performance.now()
  const boundNow = () => (run.mayHang === true ? bounds.hangBoundMs() : bounds.runBoundMs(run.timeoutMs))
  const outcome = (
    checks: Check[],
    opencode: { ms: number; boundMs: number; hung: boolean },
    failure?: { side: FailedRun["side"]; error: unknown },
  ) => ({
    checks,
    ...(failure === undefined
      ? {}
      : {
          failure: {
            failed: failedRun({ set: probe.set, run: run.name, side: failure.side }, failure.error),
            error: failure.error,
          },
        }),
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
    if (options.signal?.aborted) throw error
    // opencode could not be driven through this run (it could not start, a port, a copy that failed):
    // an opencode that ran and ended early is an observation (observe-run.ts), not this.
    const opencode = { ms: performance.now() - startedAt, boundMs: boundNow(), hung: false }
    return outcome([], opencode, { side: "opencode", error })
  }
  const opencode = { ms: performance.now() - startedAt, boundMs: boundNow(), hung: observed.hung === true }
  // A run that ended on its own measures how long opencode takes here now.
  if (!opencode.hung) bounds.record(opencode.ms)
  try {
    const checks = await compareRun(probe, observed, {
      ...(options.engine === undefined ? {} : { engine: options.engine }),
      ...(options.engineBinary === undefined ? {} : { engineBinary: options.engineBinary }),
      // tool-tester's side starts an engine: on a slow machine it gets longer too.
      timeoutMs: options.timeoutMs ?? Math.max(defaultCompareTimeoutMs, bounds.hangBoundMs()),
    })
    return outcome(checks, opencode)
  } catch (error) {
    if (options.signal?.aborted) throw error
    // tool-tester's side could not replay the run (its engine would not start, or crashed loading it).
    return outcome([], opencode, { side: "tool-tester", error })
  }
}
