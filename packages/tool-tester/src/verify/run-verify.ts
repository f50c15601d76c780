// `tool-tester verify`'s work: every run of the probe sets through the given opencode binary (with
// the scripted mock model) and through tool-tester, compared check by check. Runs go up to
// `concurrency` at once, the ones that may wait longest (their probe gives a bound: a run that can
// hang) first, so the waits overlap with the rest. Each `opencode run` is bounded, and so is each
// replay.
//
// One `opencode serve` per probe run would not save anything: every run has its own project or
// config (plugins, permissions, default agent), which opencode reads once per served instance, and
// a served session lacks `opencode run`'s permission rules, which the goldens record
// (docs/opencode-contract.md#driving-the-binary).

import { ToolTesterError } from "../errors.ts"
import { type Check, check } from "./behaviours.ts"
import { type CompareOptions, compareRun } from "./compare-run.ts"
import { observeRun } from "./observe-run.ts"
import type { ProbeRun, ProbeSet } from "./probe-set.ts"

export interface VerifyOptions extends CompareOptions {
  /** The opencode binary the probes run through. */
  opencode: string
  probes: ProbeSet[]
  /** Probe runs at once (default 4). */
  concurrency?: number
  signal?: AbortSignal
  /** Told after each probe run, with how many are done of how many, and how many differed so far. */
  onRun?: (progress: { done: number; total: number; differing: number; last: string }) => void
}

const defaultConcurrency = 4

/** Every check of every run of `probes`, in probe and run order. */
export async function runVerify(options: VerifyOptions): Promise<Check[]> {
  const runs = options.probes.flatMap((probe) => probe.runs.map((run) => ({ probe, run })))
  // Longest possible wait first.
  const order = runs
    .map((_, index) => index)
    .sort((a, b) => (runs[b]!.run.timeoutMs ?? 0) - (runs[a]!.run.timeoutMs ?? 0))
  const results: Check[][] = new Array(runs.length)
  let done = 0
  let differing = 0
  let next = 0
  const worker = async () => {
    while (next < order.length) {
      options.signal?.throwIfAborted()
      const index = order[next++]!
      const { probe, run } = runs[index]!
      const checks = await verifyRun(probe, run, options)
      results[index] = checks
      done++
      if (checks.some((entry) => !entry.agree)) differing++
      options.onRun?.({ done, total: runs.length, differing, last: `${probe.set}/${run.name}` })
    }
  }
  const workers = Math.max(1, Math.min(options.concurrency ?? defaultConcurrency, runs.length))
  await Promise.all(Array.from({ length: workers }, worker))
  return results.flat()
}

// --- internal ---

async function verifyRun(probe: ProbeSet, run: ProbeRun, options: VerifyOptions): Promise<Check[]> {
  let observed: Awaited<ReturnType<typeof observeRun>>
  try {
    observed = await observeRun({
      directory: probe.directory,
      run,
      opencode: options.opencode,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    })
  } catch (error) {
    if (options.signal?.aborted || !ToolTesterError.isInstance(error)) throw error
    // opencode could not be driven through this run (it failed before the model, a port...): one difference.
    const where = { behaviour: probe.behaviour, set: probe.set, run: run.name, subject: "the run" }
    return [check(where, `failed: ${error.code}: ${error.message}`, "runs")]
  }
  return compareRun(probe, observed, options)
}
