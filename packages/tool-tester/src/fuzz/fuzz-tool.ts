// fuzzTool: calls a tool with arguments generated from its JSON Schema the way models send them
// (fast-check), and reports each distinct failure with the smallest arguments fast-check shrank it
// to, and the seed that replays the run. After a failure is found, the search goes on with that
// failure counted as known, until no new one turns up or the runs are used up. A call that
// tampers with the engine's built-ins ends the search: what later calls would see is no longer
// what opencode gives a tool (the library replaces the engine then; the CLI's engine is this one).
import { ToolTesterError } from "../errors.ts"
import { getToolSchemas } from "../list-tools.ts"
import { runTool } from "../run-tool.ts"
import type { RunResult, ToolProject } from "../types.ts"
import { loadFastCheck } from "./_fast-check.ts"
import { type Failure, failureKey, failureOf } from "./classify.ts"
import { modelArguments } from "./model-arguments.ts"

export type FuzzOptions = {
  /** How many calls (default 200). */
  runs?: number
  /** The seed; the same seed gives the same arguments in the same order (default: random, reported). */
  seed?: number
  /** Bound of each call, in ms (default 5000): a call that takes longer is a `timeout` failure. */
  timeoutMs?: number
  /** Called before each call with its arguments (the CLI re-arms its watchdog there). */
  onCall?: (args: unknown) => void
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

export async function fuzzTool(project: ToolProject, name: string, options: FuzzOptions = {}): Promise<FuzzReport> {
  const runs = options.runs ?? 200
  if (!Number.isInteger(runs) || runs < 1)
    throw new ToolTesterError("USAGE", `runs must be a whole number above 0, not ${runs}`)
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31)
  const timeoutMs = options.timeoutMs ?? 5000
  const schemas = await getToolSchemas(project)
  if (!schemas.success) throw schemas.error
  const schema = schemas.value.find((candidate) => candidate.name === name)
  if (!schema) {
    throw new ToolTesterError(
      "TOOL_NOT_FOUND",
      `no custom or plugin tool is named ${name}: fuzz one of ${schemas.value.map((candidate) => candidate.name).join(", ") || "(none found)"}`,
      { data: { tool: name } },
    )
  }
  const fc = await loadFastCheck()
  const args = modelArguments(schema.parameters)
  const known = new Set<string>()
  const failures: FuzzFailure[] = []
  let calls = 0
  /** The call that tampered with the engine: no call is made after it. */
  let tampered: { input: unknown; result: RunResult; failure: Failure } | undefined
  const call = async (input: unknown): Promise<{ result: RunResult; failure: Failure | undefined }> => {
    calls++
    options.onCall?.(input)
    const result = await runTool(project, name, structuredClone(input), { timeoutMs })
    return { result, failure: failureOf(result) }
  }
  let remaining = runs
  while (remaining > 0 && failures.length < MAX_DISTINCT_FAILURES) {
    const before = calls
    const property = fc.asyncProperty(args, async (input) => {
      if (tampered) return true
      const { result, failure } = await call(input)
      if (failure?.code === "TOOL_TAMPERED") {
        tampered = { input, result, failure }
        return true
      }
      return failure === undefined || known.has(failureKey(failure))
    })
    const details = await fc.check(property, { numRuns: remaining, seed, endOnFailure: false })
    if (tampered) {
      failures.push({ ...tampered.failure, args: tampered.input, output: tampered.result.output })
      break
    }
    if (!details.failed || details.counterexample === null) break
    const [shrunk] = details.counterexample
    const { result, failure } = await call(shrunk)
    if (failure?.code === "TOOL_TAMPERED") {
      failures.push({ ...failure, args: shrunk, output: result.output })
      break
    }
    // Shrinking keeps a counterexample only while it fails as a new failure, so this one does.
    if (failure === undefined || known.has(failureKey(failure))) break
    known.add(failureKey(failure))
    failures.push({ ...failure, args: shrunk, output: result.output })
    remaining -= details.numRuns
    if (calls === before) break
  }
  return { tool: name, seed, calls, failures }
}
