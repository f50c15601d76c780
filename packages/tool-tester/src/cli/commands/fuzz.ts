import { randomInt } from "node:crypto"
import { shellWord } from "../../_shell-quote.ts"
import { terminalSafe } from "../../_terminal-safe.ts"
import { ToolTesterError } from "../../errors.ts"
import { requireExtras } from "../../extras.ts"
import type { FuzzFailure } from "../../fuzz/fuzz-tool.ts"
import type { StartedEngine } from "../../tasks/engine-task.ts"
import type { FuzzPayload } from "../../tasks/fuzz-task.ts"
import { engineReport, loadFailure, loadTimeoutMs } from "../../tasks/task-failure.ts"
import { bold, cyan, dim, green, red } from "../_color.ts"
import type { CliIO, Failure } from "../_command.ts"
import { exitForProblems, parseFlags, projectInput, reportFailure, serverLogPrinter } from "../_command.ts"
import { EXIT_OK, EXIT_TOOL_FAILED, exitCodeFor } from "../exit-codes.ts"
import { toolTesterCommand } from "../invocation.ts"
import { timeoutFlag, wholeNumberFlag } from "../number-flag.ts"
import { COMMAND_OPTIONS, parseConfigOf } from "../option-table.ts"
import { displayDirectory } from "../project-directory.ts"
import { formatDiagnostics, formatEngine } from "../report.ts"
import { fuzzAcrossEngines } from "./_fuzz-engines.ts"
import { fuzzProgress } from "../fuzz-progress.ts"
import { count } from "../../_count.ts"
import { stringifyKeepingNegativeZero } from "../../_negative-zero-json.ts"

const DEFAULT_RUNS = 200
const DEFAULT_CALL_TIMEOUT_MS = 5_000
/** After a call's timeout fired its abort signal: how long before a busy engine is stopped. */
const GRACE_MS = 1_000

/**
 * `tool-tester fuzz NAME`: calls the tool with arguments generated from its schema, as models send
 * them, and reports each distinct failure with the smallest arguments that cause it and the seed
 * that replays the run. Exit 4 when a failure was found.
 */
export async function fuzzCommand(argv: string[], io: CliIO, worker?: StartedEngine): Promise<number> {
  const { values, positionals } = parseFlags(
    { args: argv, options: parseConfigOf(COMMAND_OPTIONS.fuzz), allowPositionals: true },
    { command: "fuzz", run: toolTesterCommand(io), toolName: true },
  )
  const json = values.json === true
  const [name, ...extra] = positionals
  if (name === undefined) {
    const error = new ToolTesterError(
      "USAGE",
      `fuzz needs a tool name: ${toolTesterCommand(io)} fuzz NAME [--runs N] [--seed S]`,
    )
    // Loaded in the engine main.ts started for fuzz (as run does): no second engine.
    const { toolNamesHint } = await import("../tool-argument-hint.ts")
    throw await toolNamesHint(error, "fuzz", argv, io, worker)
  }
  if (extra.length > 0) {
    throw new ToolTesterError(
      "USAGE",
      `fuzz takes one tool name, not ${positionals.length}: the arguments are generated`,
    )
  }
  requireExtras("fuzz", { cwd: io.cwd, env: io.env })
  const runs = (values.runs === undefined ? undefined : wholeNumberFlag("--runs", values.runs)) ?? DEFAULT_RUNS
  const seed = (values.seed === undefined ? undefined : wholeNumberFlag("--seed", values.seed, 0)) ?? randomInt(2 ** 31)
  const timeoutMs =
    (values.timeout === undefined ? undefined : timeoutFlag("--timeout", values.timeout)) ?? DEFAULT_CALL_TIMEOUT_MS
  const input = { ...projectInput(values, {}, io), name, runs, seed, timeoutMs }
  const loadTimeout = loadTimeoutMs(io.env)
  const progress = fuzzProgress(io, name, runs)
  const { outcome, found, calls, stopped } = await fuzzAcrossEngines(
    input,
    { loadTimeoutMs: loadTimeout, runTimeoutMs: timeoutMs, graceMs: GRACE_MS },
    worker,
    serverLogPrinter(io, { command: "fuzz", input }).onServerLog,
    progress.update,
  ).finally(progress.done)
  // Every option that changes what the run finds, so that pasting it gives the same report.
  // A name that starts with a dash would be read as options: it goes last, after `--`.
  const dashed = name.startsWith("-")
  const replay = [
    toolTesterCommand(io),
    "fuzz",
    ...(dashed ? [] : [shellWord(name)]),
    ...projectWords(values),
    `--seed ${seed} --runs ${runs} --timeout ${timeoutMs}`,
    ...(dashed ? ["--", shellWord(name)] : []),
  ].join(" ")
  // Per failure, the `run` that calls the tool once with its arguments, to debug that one call.
  const rerun = (failed: FuzzFailure): string =>
    [
      toolTesterCommand(io),
      "run",
      ...(dashed ? [] : [shellWord(name)]),
      ...projectWords(values),
      `--args ${shellWord(stringifyKeepingNegativeZero(failed.args) ?? "{}")}`,
      ...(failed.kind === "timeout" ? [`--timeout ${timeoutMs}`] : []),
      ...(dashed ? ["--", shellWord(name)] : []),
    ].join(" ")
  const failure =
    loadFailure(outcome, loadTimeout) ?? (stopped === undefined ? undefined : engineStopped(stopped, replay))
  if (failure && found.length === 0) {
    reportFailure(io, json, failure)
    return exitCodeFor(failure.code)
  }
  if (outcome.kind !== "done" && stopped === undefined) {
    const reported = failure ?? { code: "INTERNAL", message: "the worker ended without an answer" }
    reportFailure(io, json, reported)
    return exitCodeFor(reported.code)
  }
  const searched: FuzzPayload =
    outcome.kind === "done"
      ? { ...(outcome.payload as FuzzPayload), calls: (outcome.payload as FuzzPayload).calls + calls }
      : { tool: name, seed, runs, calls, failures: found, diagnostics: [] }
  const report = {
    ...searched,
    failures: searched.failures.map((failed) => ({ ...failed, rerun: rerun(failed) })),
  }
  const engine = engineReport(outcome)
  if (json) {
    io.write(
      `${stringifyKeepingNegativeZero({ ...report, ...(stopped === undefined ? {} : { stopped: stopped.message }), replay, engine: engine.info })}\n`,
    )
  } else {
    io.write(formatReport(report, replay, stopped))
    io.writeError(formatDiagnostics(report.diagnostics, displayDirectory(io.cwd, values.dir)) + formatEngine(engine))
  }
  // A file that failed to load: exit 3, with --json the failure line on stderr that list and run give.
  const loadExit = exitForProblems(io, json, report.diagnostics)
  if (loadExit !== EXIT_OK) return loadExit
  return report.failures.length > 0 ? EXIT_TOOL_FAILED : EXIT_OK
}

// --- internal ---

/** The flags that chose the project and engine, as the user gave them, so the replay loads the same tools. */
function projectWords(values: {
  dir?: string | undefined
  plugin?: string[] | undefined
  "no-global"?: boolean | undefined
  engine?: string | undefined
  "engine-binary"?: string | undefined
}): string[] {
  return [
    ...(values.dir === undefined ? [] : [`--dir ${shellWord(values.dir)}`]),
    ...(values.plugin ?? []).map((spec) => `--plugin ${shellWord(spec)}`),
    ...(values["no-global"] === true ? ["--no-global"] : []),
    ...(values.engine === undefined ? [] : [`--engine ${shellWord(values.engine)}`]),
    ...(values["engine-binary"] === undefined ? [] : [`--engine-binary ${shellWord(values["engine-binary"])}`]),
  ]
}

/** Calls stopped the engine before any failure could be reported: why, and the command that replays it. */
function engineStopped(stopped: { code: string; message: string }, replay: string): Failure {
  return { code: stopped.code, message: `${stopped.message}; replay with ${replay}` }
}

/** The report as printed: each failure with the command that calls the tool once with its arguments. */
type RerunReport = Omit<FuzzPayload, "failures"> & { failures: Array<FuzzFailure & { rerun: string }> }

/** Longer than this, the text report leaves the rerun command to --json (the arguments are shown cut). */
const MAX_PRINTED_RERUN = 500

function formatReport(report: RerunReport, replay: string, stopped: { message: string } | undefined): string {
  const lines: string[] = []
  const found = report.failures.length
  const status = found === 0 ? green("no failure found") : red(`${count(found, "failure")} found`)
  lines.push(
    `${bold(cyan(terminalSafe(report.tool)))}  ${status}  ${dim(`${report.calls} calls, seed ${report.seed}`)}`,
  )
  for (const [index, failure] of report.failures.entries()) lines.push("", ...failureLines(index + 1, failure))
  if (stopped !== undefined) lines.push("", red(`stopped: ${terminalSafe(stopped.message)}`))
  lines.push("", dim(`replay: ${terminalSafe(replay)}`))
  return `${lines.join("\n")}\n`
}

function failureLines(number: number, failure: FuzzFailure & { rerun: string }): string[] {
  const what = failure.thrown ? `${failure.kind} (${failure.thrown})` : failure.kind
  // -0 written as -0: pasted into `run --args`, the arguments replay the failure.
  const args = stringifyKeepingNegativeZero(failure.args) ?? "undefined"
  const shown = args.length > 300 ? `${args.slice(0, 297)}...` : args
  return [
    `${red(`${number}. ${what}`)}  ${dim(failure.code)}`,
    `   ${dim("args")}     ${terminalSafe(shown)}`,
    `   ${dim("message")}  ${terminalSafe(failure.message)}`,
    `   ${dim("rerun")}    ${
      failure.rerun.length > MAX_PRINTED_RERUN
        ? dim(`the arguments are ${args.length} characters: the command is each failure's "rerun" in --json`)
        : terminalSafe(failure.rerun)
    }`,
  ]
}
