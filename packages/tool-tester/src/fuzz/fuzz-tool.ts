// fuzzTool: calls a tool with arguments generated from its JSON Schema the way models send them
// (fast-check), and reports each distinct failure with the smallest arguments fast-check shrank it
// to, and the seed that replays the run. After a failure is found, the search goes on with that
// failure counted as known, until no new one turns up or the runs are used up. A call that takes
// longer than its bound is a `timeout` failure with the arguments as they were (not shrunk: each
// try would take the whole bound), and the search goes on. A call that tampers with the engine's
// built-ins ends the search: what later calls would see is no longer what opencode gives a tool
// (the library replaces the engine then; the CLI's engine is this one). The CLI restarts an engine
// that a call kept busy or ended, and runs the search again from the start with what it learned
// (`found`, `skip`): the same seed gives the same arguments, so the run goes on past that call.
import { checkTimeoutOption } from "../_timeout-bound.ts"
import { isRecord } from "../_is-record.ts"
import { refuseUnknownOptions } from "../_known-options.ts"
import { didYouMean } from "../did-you-mean.ts"
import { ToolTesterError } from "../errors.ts"
import { getToolSchemas } from "../list-tools.ts"
import { described } from "../_described.ts"
import { runTool } from "../run-tool.ts"
import type { RunResult, ToolProject } from "../types.ts"
import { loadFastCheck } from "./_fast-check.ts"
import { type Failure, failureKey, failureOf } from "./classify.ts"
import { modelArguments } from "./model-arguments.ts"
import { toolChoice } from "../_tool-choice.ts"
import { BUILTIN_TOOL_IDS } from "../pipeline/builtins.ts"
import { stringifyKeepingNegativeZero } from "../_negative-zero-json.ts"

export type FuzzOptions = {
  /** How many calls (default 200). */
  runs?: number
  /** The seed; the same seed gives the same arguments in the same order (default: random, reported). */
  seed?: number
  /** Bound of each call, in ms (default 5000): a call that takes longer is a `timeout` failure. */
  timeoutMs?: number
  /** Called before each call with its arguments (the CLI re-arms its watchdog there). */
  onCall?: (args: unknown) => void
  /** Called with each distinct failure as it is found (the CLI keeps them if the engine is then stopped). */
  onFailure?: (failure: FuzzFailure) => void
  /** Failures found earlier in this run, by an engine that was then stopped: reported first, not searched for again. */
  found?: FuzzFailure[]
  /** Arguments not to call again (they kept the engine busy or ended it): each is answered with its failure. */
  skip?: Array<{ args: unknown; failure: Failure }>
  /**
   * Stops the search: once it is aborted no further call starts, the running one gets it as
   * runTool's `signal` (its tool's `ctx.abort` fires; under the bun engine a tool that has not
   * stopped 1 s later has its engine ended), and fuzzTool rejects with the signal's reason. In
   * vitest, pass the test context's `signal`, aborted at the test's timeout.
   */
  signal?: AbortSignal
}

export type FuzzFailure = Failure & {
  /** The smallest arguments fast-check found that still fail. */
  args: unknown
  /** The output the model read for those arguments. */
  output: string
}

export type FuzzReport = {
  tool: string
  seed: number
  /** Calls made (shrinking included). */
  calls: number
  /** Distinct failures, in the order found. */
  failures: FuzzFailure[]
}

const MAX_DISTINCT_FAILURES = 10

/** Every option fuzzTool takes: `numRuns` (fast-check's word) for `runs` would make 200 calls. */
const FUZZ_OPTIONS: Record<keyof FuzzOptions, true> = {
  runs: true,
  seed: true,
  timeoutMs: true,
  onCall: true,
  onFailure: true,
  found: true,
  skip: true,
  signal: true,
}

export async function fuzzTool(project: ToolProject, name: string, options: FuzzOptions = {}): Promise<FuzzReport> {
  if (typeof name !== "string")
    throw new ToolTesterError("USAGE", `fuzzTool's name must be the tool's name, a string, not ${described(name)}`, {
      data: { option: "name" },
    })
  if (!isRecord(options))
    throw new ToolTesterError(
      "USAGE",
      `fuzzTool's options must be an object, such as { runs: 500 }, not ${described(options)}`,
      {
        data: { option: "options" },
      },
    )
  refuseUnknownOptions("fuzzTool", options, FUZZ_OPTIONS)
  const runs = options.runs ?? 200
  if (!Number.isInteger(runs) || runs < 1)
    throw new ToolTesterError("USAGE", `runs must be a whole number above 0, not ${described(runs)}`, {
      data: { option: "runs" },
    })
  // The report gives the seed back to replay the run: it must be one fast-check takes as it is.
  if (options.seed !== undefined && !(typeof options.seed === "number" && Number.isFinite(options.seed)))
    throw new ToolTesterError("USAGE", `seed must be a number, such as report.seed, not ${described(options.seed)}`, {
      data: { option: "seed" },
    })
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31)
  checkTimeoutOption("timeoutMs", options.timeoutMs)
  const timeoutMs = options.timeoutMs ?? 5000
  const signal = options.signal
  if (signal !== undefined && !(signal instanceof AbortSignal))
    throw new ToolTesterError(
      "USAGE",
      `signal must be an AbortSignal, such as the test context's signal, not ${described(signal)}`,
      { data: { option: "signal" } },
    )
  signal?.throwIfAborted()
  const schemas = await getToolSchemas(project)
  if (!schemas.success) throw schemas.error
  const schema = schemas.value.find((candidate) => candidate.name === name)
  if (!schema && BUILTIN_TOOL_IDS.includes(name)) {
    throw new ToolTesterError(
      "TOOL_NOT_FOUND",
      `${name} is one of opencode's built-in tools, which check their own arguments; fuzz calls custom and plugin tools: ${toolChoice(
        "fuzz",
        schemas.value.map((candidate) => candidate.name),
      )}`,
      { data: { tool: name } },
    )
  }
  if (!schema) {
    const names = schemas.value.map((candidate) => candidate.name)
    throw new ToolTesterError(
      "TOOL_NOT_FOUND",
      `no custom or plugin tool is named ${name}: ${toolChoice("fuzz", names)}${didYouMean(name, names)}`,
      { data: { tool: name } },
    )
  }
  const fc = await loadFastCheck()
  signal?.throwIfAborted()
  const args = modelArguments(schema.parameters)
  const failures: FuzzFailure[] = [...(options.found ?? [])]
  const known = new Set<string>(failures.map(failureKey))
  for (const entry of options.skip ?? []) known.add(failureKey(entry.failure))
  // Keyed by their JSON text with -0 kept: {"n":-0} and {"n":0} are different calls.
  const skipped = new Map(
    (options.skip ?? []).map((entry) => [stringifyKeepingNegativeZero(entry.args), entry.failure]),
  )
  const record = (failure: FuzzFailure) => {
    known.add(failureKey(failure))
    failures.push(failure)
    options.onFailure?.(failure)
  }
  let calls = 0
  /** The call that tampered with the engine: no call is made after it. */
  let tampered: { input: unknown; result: RunResult | undefined; failure: Failure } | undefined
  const call = async (input: unknown): Promise<{ result: RunResult | undefined; failure: Failure | undefined }> => {
    const answer = skipped.get(stringifyKeepingNegativeZero(input))
    if (answer !== undefined) return { result: undefined, failure: answer }
    calls++
    options.onCall?.(input)
    const runOptions = signal === undefined ? { timeoutMs } : { timeoutMs, signal }
    let result = await runTool(project, name, structuredClone(input), runOptions)
    // Under the bun engine, a timed-out call whose tool did not stop has its engine ended a second
    // later: a call running there then is INTERRUPTED, nothing its input did, and runs again
    // (unless the caller's signal stopped it).
    if (result.error?.code === "INTERRUPTED" && !signal?.aborted)
      result = await runTool(project, name, structuredClone(input), runOptions)
    return { result, failure: failureOf(result) }
  }
  let remaining = runs
  while (remaining > 0 && failures.length < MAX_DISTINCT_FAILURES) {
    const before = calls
    const property = fc.asyncProperty(args, async (input) => {
      if (tampered) return true
      // Stopped: fast-check ends the run there (no shrinking), and the signal's reason is thrown
      // below. What a stopped call returned says nothing about its arguments.
      if (signal?.aborted) throw new fc.PreconditionFailure(true)
      const { result, failure } = await call(input)
      if (signal?.aborted) throw new fc.PreconditionFailure(true)
      if (failure?.code === "TOOL_TAMPERED") {
        tampered = { input, result, failure }
        return true
      }
      if (failure?.kind === "timeout" && result !== undefined) {
        // Not called again when the search starts over (each call would take the whole bound).
        skipped.set(stringifyKeepingNegativeZero(input), failure)
        if (!known.has(failureKey(failure))) record({ ...failure, args: input, output: result.output })
        return true
      }
      return failure === undefined || known.has(failureKey(failure))
    })
    const details = await fc.check(property, { numRuns: remaining, seed, endOnFailure: false })
    signal?.throwIfAborted()
    if (tampered) {
      record({ ...tampered.failure, args: tampered.input, output: tampered.result?.output ?? "" })
      break
    }
    if (!details.failed || details.counterexample === null) break
    const [shrunk] = details.counterexample
    const { result, failure } = await call(shrunk)
    signal?.throwIfAborted()
    if (failure?.code === "TOOL_TAMPERED") {
      record({ ...failure, args: shrunk, output: result?.output ?? "" })
      break
    }
    // Shrinking keeps a counterexample only while it fails as a new failure, so this one does.
    if (failure === undefined || known.has(failureKey(failure))) break
    record({ ...failure, args: shrunk, output: result?.output ?? "" })
    remaining -= details.numRuns
    if (calls === before) break
  }
  return { tool: name, seed, calls, failures }
}
