import path from "node:path"
import { toolTesterCommand } from "../invocation.ts"
import { bunApiHint } from "../../doctor/bun-api.ts"
import { ToolTesterError } from "../../errors.ts"
import { modelFilterNote } from "../../pipeline/builtins.ts"
import { dataDirectoryProblem } from "../../pipeline/data-directory.ts"
import type { StartedEngine, TaskOutcome } from "../../tasks/engine-task.ts"
import { runTaskInEngine } from "../../tasks/engine-task.ts"
import type { RunJson, RunPayload } from "../../tasks/run-task.ts"
import type { RunArgs, RunInput } from "../../tasks/task.ts"
import { engineReport, exitedMessage, loadTimeoutMs as loadBound, loadFailure } from "../../tasks/task-failure.ts"
import type { CliIO, Failure } from "../_command.ts"
import { parseFlags, projectInput, reportFailure, serverLogPrinter } from "../_command.ts"
import { EXIT_LOAD_FAILED, EXIT_OK, EXIT_REROUTED, EXIT_TOOL_FAILED, exitCodeFor } from "../exit-codes.ts"
import { modelInputFlag } from "../model-input-flag.ts"
import { timeoutFlag, wholeNumberFlag } from "../number-flag.ts"
import { COMMAND_OPTIONS, parseConfigOf } from "../option-table.ts"
import { displayDirectory } from "../project-directory.ts"
import { pluginPackageHint } from "../plugin-package-hint.ts"
import { formatDiagnostics } from "../report.ts"
import { madeUpResult } from "../made-up-result.ts"
import { formatRun } from "../run-report.ts"
import { stringifyKeepingNegativeZero } from "../../_negative-zero-json.ts"

/** Default `--timeout`: how long the tool may run (and, separately, how long loading may take). */
export const DEFAULT_TIMEOUT_MS = 60_000
/** After the timeout fired the tool's abort signal: how long it may clean up before the worker is killed. */
export const GRACE_MS = 1_000

/**
 * `tool-tester run NAME`: runs one tool through opencode's pipeline in a worker thread and prints
 * what the model would read. The JSON result goes to stdout whatever the exit code, whenever the
 * tool was reached.
 */
export async function runCommand(argv: string[], io: CliIO, worker?: StartedEngine): Promise<number> {
  const { values, positionals } = await runFlags(argv, io, worker)
  const json = values.json === true
  const [name, ...pairs] = positionals
  if (name === undefined) {
    const error = new ToolTesterError(
      "USAGE",
      `run needs a tool name: ${toolTesterCommand(io)} run NAME [key=value ...]`,
    )
    const { toolNamesHint } = await import("../tool-argument-hint.ts")
    throw await toolNamesHint(error, "run", argv, io, worker)
  }
  const timeoutMs =
    (values.timeout === undefined ? undefined : timeoutFlag("--timeout", values.timeout)) ?? DEFAULT_TIMEOUT_MS
  const input = {
    ...projectInput(values, values, io),
    name,
    args: await runArgsOrHint(values, pairs, argv, io, worker),
    validate: values.validate === true,
    deny: values.deny ?? [],
    maxLines: values["max-lines"] === undefined ? undefined : wholeNumberFlag("--max-lines", values["max-lines"]),
    maxBytes: values["max-bytes"] === undefined ? undefined : wholeNumberFlag("--max-bytes", values["max-bytes"]),
    timeoutMs,
    agent: values.agent,
    modelInput: values["model-input"] === undefined ? undefined : modelInputFlag(values["model-input"]),
    dataDirectory:
      values["data-dir"] === undefined ? undefined : writableDataDirectory(pathFrom(io, values["data-dir"])),
  }
  // Read before the chdir below: --plugin . is said from the folder the command was typed in.
  const packageHint = pluginPackageHint(input, io.cwd)
  // Tools see process.cwd() = the project directory, as under opencode.
  io.chdir(input.directory)
  // The report's paths are shown from the project when pnpm, yarn or bun started this in .opencode.
  const shown: CliIO = { ...io, cwd: displayDirectory(io.cwd, values.dir) }
  // --watch also watches the helpers the tools imported, which only the engine knows.
  let modules: string[] = []
  const startedAt = Date.now()
  const exitCode = await runAndReport(shown, json, input, worker, packageHint, (files) => {
    modules = files
  })
  if (values.watch !== true) return exitCode
  // --watch: the same call again on every save, each in a fresh engine, until Ctrl-C.
  const { watchRuns } = await import("../run-watch.ts")
  return watchRuns(
    io,
    { input, json, engine: values.engine, engineBinary: values["engine-binary"], exitCode, modules, startedAt },
    (next, onModules) => runAndReport(shown, json, input, next, packageHint, onModules),
  )
}

/**
 * One run, reported: what the model reads, then the verdict as the exit code. `packageHint`: the
 * folder is a plugin package not loaded with --plugin (plugin-package-hint.ts).
 */
async function runAndReport(
  io: CliIO,
  json: boolean,
  input: RunInput,
  worker?: StartedEngine,
  packageHint?: string,
  /** Told the module files the load imported (for --watch). */
  onModules?: (files: string[]) => void,
): Promise<number> {
  const { timeoutMs } = input
  // Loading gets its own bound: a short --timeout is about the tool, not about importing files.
  const loadTimeoutMs = Math.max(loadBound(io.env), timeoutMs)
  const outcome = await runTaskInEngine(
    { command: "run", input },
    { loadTimeoutMs, runTimeoutMs: timeoutMs, graceMs: GRACE_MS },
    worker,
    { ...serverLogPrinter(io, { command: "run", input }), ...(onModules === undefined ? {} : { onModules }) },
  )

  // The engine's channel failing while the tool ran still gets a result (made up here, like TOOL_EXITED's).
  const failure = channelFailedWhileRunning(outcome) ? undefined : loadFailure(outcome, loadTimeoutMs)
  if (failure) {
    reportFailure(io, json, failure)
    return exitCodeFor(failure.code)
  }
  const { result, diagnostics } = reachedResult(outcome, timeoutMs)
  const engine = engineReport(outcome)
  // The warnings the human report prints on stderr (a misspelt key=value name, an agent fallen back).
  const warnings = diagnostics
    .filter((diagnostic) => diagnostic.severity === "warning")
    .map(({ code, message, file }) => (file === undefined ? { code, message } : { code, message, file }))
  if (json) {
    const shown = {
      ...result,
      ...(warnings.length > 0 ? { warnings } : {}),
      console: outcome.console,
      engine: engine.info,
    }
    io.write(`${stringifyKeepingNegativeZero(shown)}\n`)
  } else {
    io.write(formatRun(result, outcome.console, io.cwd, engine))
    io.writeError(formatDiagnostics(diagnostics, io.cwd))
    const hint = result.status === "error" && engine.info.name === "node" ? bunApiHint(result.output) : undefined
    if (hint) io.writeError(`${hint}\n`)
  }

  const { exitCode, reason, listed } = verdict(result, diagnostics, packageHint)
  // A file that failed to load is already one of the lines above, without --json.
  if (reason && (json || !listed)) reportFailure(io, json, reason)
  return exitCode
}

// --- internal ---

async function runFlags(argv: string[], io: CliIO, worker: StartedEngine | undefined) {
  try {
    return parseFlags(
      { args: argv, options: parseConfigOf(COMMAND_OPTIONS.run), allowPositionals: true },
      { command: "run", run: toolTesterCommand(io), toolArguments: true, toolName: true },
    )
  } catch (error) {
    // `--loud` with no value: the tool's schema says what it takes (loaded only on this usage error).
    const { exactToolArgumentHint } = await import("../tool-argument-hint.ts")
    throw await exactToolArgumentHint(error, argv, io, worker)
  }
}

/** {@link runArgs}; `run echo hello` gets, from the tool's schema, the pair to write instead (`input=hello`). */
async function runArgsOrHint(
  values: { args?: string | undefined; "raw-args"?: string | undefined },
  pairs: string[],
  argv: string[],
  io: CliIO,
  worker: StartedEngine | undefined,
): Promise<RunArgs> {
  try {
    return runArgs(values.args, values["raw-args"], pairs)
  } catch (error) {
    const { bareWordHint } = await import("../tool-argument-hint.ts")
    throw await bareWordHint(error, argv, io, worker)
  }
}

function runArgs(json: string | undefined, raw: string | undefined, pairs: string[]): RunArgs {
  const forms = [json !== undefined, raw !== undefined, pairs.length > 0].filter(Boolean).length
  if (forms > 1) {
    throw new ToolTesterError("USAGE", "give the arguments one way: --args JSON, --raw-args TEXT, or key=value pairs")
  }
  for (const pair of pairs) {
    if (pair.indexOf("=") <= 0) {
      // The bare words (`run echo hello world`, `run greet times=2 Ada`): the value of the one
      // argument the pairs leave to give, as a hint (tool-argument-hint.ts).
      const bare = pairs.filter((word) => word.indexOf("=") <= 0)
      const given = pairs.filter((word) => word.indexOf("=") > 0).map((word) => word.slice(0, word.indexOf("=")))
      throw new ToolTesterError(
        "USAGE",
        `"${pair}" is not a key=value pair; run takes one tool name, then key=value pairs`,
        { data: { bareWords: bare.join(" "), givenKeys: given } },
      )
    }
  }
  if (raw !== undefined) return { form: "raw", text: raw }
  if (pairs.length > 0) return { form: "pairs", pairs }
  if (json === undefined) return { form: "none" }
  let value: unknown
  try {
    value = JSON.parse(json)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new ToolTesterError(
      "ARGS_UNPARSABLE",
      `--args is not JSON (${reason}); quote it for your shell, or use --raw-args to see what opencode does with bad JSON`,
    )
  }
  // The parsed value crosses to the engine as JSON, which a runtime writes by recursion: a few
  // thousand levels overflow its stack. As text (--raw-args) it reaches the tool as a model's would.
  if (nestsDeeperThan(value, MAX_ARGS_DEPTH)) {
    throw new ToolTesterError(
      "USAGE",
      `--args nests deeper than ${MAX_ARGS_DEPTH} levels; pass the same text with --raw-args, which hands it to opencode's pipeline as the model's text`,
    )
  }
  // A number past a double's range (1e400) parses as Infinity, which JSON writes as null, and -0
  // as 0: sent parsed, the tool would get null or 0. As the text it is, it is parsed where the
  // tool runs, as a model's arguments are, and the tool gets Infinity or -0, as in opencode.
  if (holdsUnwritable(value)) return { form: "raw", text: json }
  return { form: "json", value }
}

/** Whether `value` holds a number JSON.stringify does not write as it is (Infinity, -Infinity, -0), walked without recursion. */
function holdsUnwritable(value: unknown): boolean {
  const stack: unknown[] = [value]
  for (let current = stack.pop(); stack.length > 0 || current !== undefined; current = stack.pop()) {
    if (typeof current === "number" && (!Number.isFinite(current) || Object.is(current, -0))) return true
    // One push at a time: spreading a large array's values would pass the engine's argument limit.
    if (typeof current === "object" && current !== null) for (const child of Object.values(current)) stack.push(child)
  }
  return false
}

/** How deep --args may nest (objects and arrays) to be sent parsed. */
const MAX_ARGS_DEPTH = 1000

/** Whether `value` nests objects and arrays more than `limit` levels deep (walked without recursion). */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]]
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const [current, depth] = entry
    if (typeof current !== "object" || current === null) continue
    if (depth + 1 > limit) return true
    for (const child of Object.values(current)) stack.push([child, depth + 1])
  }
  return false
}

function pathFrom(io: CliIO, value: string): string {
  return path.resolve(io.cwd, value)
}

/** `--data-dir`, refused before anything runs when truncated outputs could not be saved there. */
function writableDataDirectory(directory: string): string {
  const problem = dataDirectoryProblem(directory)
  if (problem === undefined) return directory
  throw new ToolTesterError(
    "USAGE",
    `--data-dir ${directory}: ${problem}; pass a folder you can write to (it is created if missing), or leave --data-dir out for a temporary one`,
    { data: { directory } },
  )
}

/**
 * Failures after the tool was reached that leave no answer of the engine's to believe: something in
 * its process wrote on or closed its channel, or the answer was too large to cross. The result is
 * then tool-tester's own, never what came over the channel (docs/cli.md#run).
 */
const CHANNEL_FAILURES = new Set(["CHANNEL_FORGED", "CHANNEL_CLOSED", "RESULT_TOO_LARGE"])

function channelFailedWhileRunning(outcome: TaskOutcome): boolean {
  return outcome.kind === "failed" && outcome.phase === "run" && CHANNEL_FAILURES.has(outcome.error.code)
}

/**
 * The run result: from the worker, or made up here when the tool timed out, ended the worker, or
 * its channel failed (channelFailedWhileRunning).
 */
function reachedResult(outcome: TaskOutcome, timeoutMs: number): RunPayload {
  if (outcome.kind === "done") return outcome.payload as RunPayload
  const error =
    outcome.kind === "timeout"
      ? {
          code: "TOOL_TIMEOUT",
          message: `the tool did not finish within ${timeoutMs} ms and kept its thread busy, so its abort signal could not even run: it was stopped`,
        }
      : outcome.kind === "failed"
        ? { code: outcome.error.code, message: outcome.error.message }
        : { code: "TOOL_EXITED", message: exitedMessage(outcome) }
  const reached = "reached" in outcome ? outcome.reached : undefined
  return { result: madeUpResult(reached, error, outcome.durationMs), diagnostics: [] }
}

/**
 * The exit code and the failure to report: the run's own outcome first; a completed or rerouted
 * call still exits 3 when a file failed to load or the tool list would break, because opencode
 * would then have offered no tool at all. `listed`: that failure is a load problem, which the human
 * report lists already.
 */
function verdict(
  result: RunJson,
  diagnostics: RunPayload["diagnostics"],
  packageHint: string | undefined,
): { exitCode: number; reason?: Failure; listed?: boolean } {
  const problems = diagnostics.filter((diagnostic) => diagnostic.severity === "error")
  let exitCode = EXIT_OK
  let reason: Failure | undefined
  if (result.error) {
    exitCode = exitCodeFor(result.error.code)
    reason = result.error
  } else if (result.rerouted) {
    const args = result.args as { error?: unknown } | null
    exitCode = EXIT_REROUTED
    // No close name: in a plugin package's folder, the package itself was not loaded.
    const hint = result.suggestion
      ? `; did you mean ${result.suggestion}?`
      : packageHint && !result.denied && !result.hidden
        ? `; ${packageHint}`
        : ""
    const denied = result.denied
      ? `${result.denied.tool} (${result.denied.file}) is denied by a permission rule (opencode.json's "permission", the agent's, or --deny), so opencode leaves it out of the tool list: `
      : result.hidden
        ? `${result.hidden.tool} (${result.hidden.file}) is not offered to this model: like the built-in ${result.hidden.tool}, ${modelFilterNote(result.hidden.tool) ?? "it is hidden by opencode's per-model filter"} (pass --model for a model it is offered to): `
        : ""
    reason = {
      code: "TOOL_REROUTED",
      message: `the call to ${result.name} was rerouted to the invalid tool: ${denied}${String(args?.error ?? "").replace(hint ? /\.$/ : /$^/, "")}${hint}`,
    }
  } else if (result.modelRequestError !== undefined) {
    exitCode = EXIT_TOOL_FAILED
    reason = {
      code: "RESULT_UNSENDABLE",
      message: `the call completed, but opencode's run would end as it sends the result to this provider's model: ${result.modelRequestError.replace(/\.?$/, ".")} Return that file as text in the output, or as a type this provider takes`,
    }
  }
  const first = problems[0]
  if (first && (exitCode === EXIT_OK || exitCode === EXIT_REROUTED)) {
    return { exitCode: EXIT_LOAD_FAILED, reason: { code: first.code, message: first.message }, listed: true }
  }
  return reason ? { exitCode, reason } : { exitCode }
}
