import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs"
import path from "node:path"
import { definedFields } from "../../_defined-fields.ts"
import { statOf } from "../../_file-stats.ts"
import { folderCreationProblem, makeFolders } from "../../_make-folders.ts"
import { shellWord } from "../../_shell-quote.ts"
import { didYouMean } from "../../did-you-mean.ts"
import { ToolTesterError } from "../../errors.ts"
import { noModelProblem } from "../../eval/configured-model.ts"
import { checkModelIds } from "../../eval/model-id.ts"
import {
  compareArms,
  defaultHistoryFile,
  formatEvalTable,
  isEvalReportText,
  isHistoryText,
  normalResults,
  renderEvalHtml,
  totalsOf,
  WITHOUT_PREFIX,
} from "../../eval/report/index.ts"
import {
  type EvalProjectResult,
  type PreparedEval,
  passRate,
  prepareEval,
  runEvalProject,
} from "../../eval/run-project.ts"
import type { EvalArm } from "../../eval/runner/run-eval.ts"
import type { EvalResult } from "../../eval/types.ts"
import { readVariants } from "../../eval/variants.ts"
import { BUILTIN_TOOL_IDS } from "../../pipeline/builtins.ts"
import { colorEnabled } from "../_color.ts"
import { carriedFlags } from "../carried-flags.ts"
import type { CliIO } from "../_command.ts"
import { parseFlags, reportFailure } from "../_command.ts"
import { EXIT_BELOW_THRESHOLD, EXIT_OK, EXIT_USAGE } from "../exit-codes.ts"
import { interruptible } from "../interruptible.ts"
import { toolTesterCommand } from "../invocation.ts"
import { timeoutFlag, wholeNumberFlag } from "../number-flag.ts"
import { COMMAND_OPTIONS, parseConfigOf } from "../option-table.ts"
import { projectDirectory } from "../project-directory.ts"
import { opencodeOption } from "../opencode-option.ts"

/**
 * `tool-tester eval`: runs the project's eval cases (`.opencode/evals/`) through the real opencode
 * with the user's own providers, grades each trial, keeps the run in the history and compares it
 * with the previous one (docs/evals.md).
 */
export async function evalCommand(argv: string[], io: CliIO): Promise<number> {
  const { values } = parseFlags(
    { args: argv, options: parseConfigOf(COMMAND_OPTIONS.eval) },
    { command: "eval", run: toolTesterCommand(io) },
  )
  const json = values.json === true
  const project = projectDirectory(io.cwd, values.dir)
  if (project.notice && !json) io.writeError(`${project.notice}\n`)
  // The printed commands name the project as it was given, so that they run where they were typed.
  const dirFlag = values.dir === undefined ? "" : ` --dir ${shellWord(values.dir)}`
  if (values.opencode !== undefined && values["opencode-version"] !== undefined) {
    throw new ToolTesterError("USAGE", "give either --opencode PATH or --opencode-version V, not both")
  }
  if (values.history !== undefined && values["no-history"] === true) {
    throw new ToolTesterError("USAGE", "give either --history FILE or --no-history, not both")
  }
  // A model id of another form can name no model: said before anything starts.
  checkModelIds(values.model ?? [])
  const runs = values.runs === undefined ? undefined : wholeNumberFlag("--runs", values.runs)
  const concurrency =
    values.concurrency === undefined ? undefined : wholeNumberFlag("--concurrency", values.concurrency)
  const timeoutMs = values.timeout === undefined ? undefined : timeoutFlag("--timeout", values.timeout)
  const threshold = values.threshold === undefined ? undefined : parseThreshold(values.threshold)
  const thresholdOn = parseThresholdOn(values["threshold-on"])
  // Alone it would judge nothing, and a gate the user meant to set would pass whatever the rates.
  if (values["threshold-on"] !== undefined && threshold === undefined) {
    throw new ToolTesterError(
      "USAGE",
      `--threshold-on ${shellWord(values["threshold-on"])} says what --threshold compares, and no --threshold was given: add --threshold RATE (0.8, 80% or 80)`,
    )
  }
  // Written after every trial: a path that cannot take them fails now, not after the run.
  // An existing file is replaced (--html) or appended to (--history) only when eval wrote it.
  if (values.html !== undefined)
    checkOutputFile("--html", path.resolve(io.cwd, values.html), "report.html", {
      owned: isEvalReportText,
      what: "an eval report",
    })
  if (values.history !== undefined)
    checkOutputFile("--history", path.resolve(io.cwd, values.history), "evals-history.jsonl", {
      owned: isHistoryText,
      what: "an eval history",
    })

  // One file cannot be both: the page would replace the history the run had just added to.
  if (values.html !== undefined && values["no-history"] !== true) {
    const history =
      values.history === undefined ? defaultHistoryFile(project.directory) : path.resolve(io.cwd, values.history)
    if (samePath(path.resolve(io.cwd, values.html), history)) {
      throw new ToolTesterError(
        "USAGE",
        `--html ${values.html} is the history file (${history}): give the page a file of its own, such as report.html`,
        { data: { option: "--html", file: history } },
      )
    }
  }

  if (values.init === true) {
    // The run's options, checked above, go into the command it prints: they apply to that run.
    const flags = `${dirFlag}${carriedFlags(values, ["init", "dir", "json"])}`
    const modelGiven = (values.model ?? []).length > 0
    return (await import("./eval-init.ts")).writeStarterEvals(project.directory, json, io, flags, modelGiven)
  }

  // Known before anything starts: no engine, no opencode (the runner asks opencode when only it can tell).
  const noModel = (values.model ?? []).length === 0 ? noModelProblem(project.directory) : undefined
  if (noModel !== undefined) {
    reportFailure(io, json, noModel)
    return EXIT_USAGE
  }
  const prepared = await prepareEval(project.directory, values.case ?? [])
  if (prepared.cases.length === 0) {
    reportProblems(io, json, prepared.problems)
    if (prepared.problems.length > 0) return EXIT_USAGE
    throw new ToolTesterError(
      "USAGE",
      `no eval cases in ${path.join(project.directory, ".opencode", "evals")}: ${toolTesterCommand(io)} eval --init${dirFlag} writes starter cases`,
    )
  }

  // The default history is read and appended to after every trial too: a folder or a FIFO there
  // would fail (or hang) only then. It is eval's own file, so what it holds is not asked.
  if (values.history === undefined && values["no-history"] !== true) {
    checkOutputFile("the history file", defaultHistoryFile(project.directory), "", {
      owned: () => true,
      what: "an eval history",
      advice: "remove it, or give --history FILE or --no-history",
    })
  }
  const arms = evalArms(prepared, io, values.variants, values.without ?? [])

  const ran = await interruptible(
    io,
    json,
    "interrupted: opencode was stopped and its folders removed",
    ({ signal, progress }) => {
      let finished = 0
      return runEvalProject({
        prepared,
        models: values.model ?? [],
        ...(arms.length === 0 ? {} : { arms }),
        ...historyOption(io, values["no-history"] === true, values.history),
        ...definedFields({
          runs,
          agent: values.agent,
          concurrency,
          timeoutMs,
          opencode: values.opencode === undefined ? undefined : opencodeOption(io.cwd, values.opencode),
          opencodeVersion: values["opencode-version"],
        }),
        signal,
        onProgress: progress.phase,
        onTrial: (trial) => {
          finished += 1
          progress.phase(`${finished} trials done (last: ${trial.case} on ${trial.model})`)
        },
      })
    },
  )
  if ("exitCode" in ran) return ran.exitCode
  const outcome: EvalProjectResult = ran.value
  const results = normalResults(outcome.run.results)
  // No trial, no page: a run that stopped before any (EVAL_NO_MODEL from opencode) leaves the file as it was.
  const page =
    values.html === undefined || outcome.run.results.length === 0
      ? {}
      : writeHtmlReport(path.resolve(io.cwd, values.html), outcome)
  // A page that could not be written is a problem of the run, reported with the report, never instead of it.
  if (page.problem !== undefined) outcome.problems.push(page.problem)
  const htmlFile = page.file
  const below = threshold === undefined ? [] : belowThreshold(results, threshold, thresholdOn)
  const report: EvalReport = { outcome, results, withArms: arms.length > 0, threshold, thresholdOn, below, htmlFile }
  if (json) {
    io.write(`${JSON.stringify(jsonReport(report))}\n`)
    // The report holds every problem; the failure line on stderr names the first, as doctor's does.
    reportProblems(io, true, outcome.problems)
    // Below the threshold is a failure too: its line names the cases, as the text report's does.
    if (outcome.problems.length === 0 && threshold !== undefined && below.length > 0)
      reportFailure(io, true, {
        code: "EVAL_BELOW_THRESHOLD",
        message: thresholdVerdict(results, below, threshold, thresholdOn),
      })
  } else writeTextReport(io, report)
  if (outcome.problems.length > 0) return EXIT_USAGE
  if (below.length > 0) return EXIT_BELOW_THRESHOLD
  return EXIT_OK
}

// --- internal ---

/** What a finished eval reports, in JSON or as a table. */
type EvalReport = {
  outcome: EvalProjectResult
  /** The normal run's results (no variant, no `--without`). */
  results: EvalResult[]
  withArms: boolean
  threshold: number | undefined
  thresholdOn: "point" | "lower"
  below: EvalResult[]
  htmlFile: string | undefined
}

/**
 * `--html FILE`: the run's page, written whole or not at all (a file beside it, renamed over it, so
 * an earlier page is never left half-replaced); its path, or why it could not be written (the
 * folder became a file during the run, a full disk), checked as it was before the trials.
 */
export function writeHtmlReport(
  file: string,
  outcome: Pick<EvalProjectResult, "run" | "changes" | "history">,
): { file?: string; problem?: { code: "USAGE"; message: string } } {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`)
  try {
    makeFolders(path.dirname(file))
    writeFileSync(temporary, renderEvalHtml(outcome.run, outcome.changes, outcome.history), { flag: "wx" })
    renameSync(temporary, file)
    return { file }
  } catch (error) {
    try {
      rmSync(temporary, { force: true })
    } catch {
      // Nothing was made there.
    }
    const reason = error instanceof Error ? error.message : String(error)
    return {
      problem: {
        code: "USAGE",
        message: `--html ${file} could not be written after the run (${reason}); no page was written: give a file path you can write, and run again`,
      },
    }
  }
}

/**
 * The problems that make eval exit 1: each on its own line, or with --json the one failure line on
 * stderr, naming the first and how many more.
 */
function reportProblems(io: CliIO, json: boolean, problems: ReadonlyArray<{ code: string; message: string }>): void {
  if (!json) {
    for (const problem of problems) reportFailure(io, false, problem)
    return
  }
  const first = problems[0]
  if (first === undefined) return
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : ""
  reportFailure(io, true, { code: first.code, message: `${first.message}${more}` })
}

/** `--json`'s one object. */
function jsonReport(report: EvalReport): Record<string, unknown> {
  const { outcome, results, threshold, thresholdOn, below, htmlFile } = report
  const { run, changes, historyFile, problems } = outcome
  return {
    run,
    changes: Object.fromEntries([...changes].map(([key, change]) => [key.replace("\u0000", " "), change])),
    totals: totalsOf(results),
    ...(report.withArms ? { arms: compareArms(run.results) } : {}),
    problems,
    threshold: threshold ?? null,
    thresholdOn,
    belowThreshold: below.map((result) => ({
      case: result.case,
      model: result.model,
      passed: result.passed,
      runs: result.runs,
    })),
    history: historyFile ?? null,
    html: htmlFile ?? null,
  }
}

/** The table on stdout; problems, the files written and the threshold's verdict on stderr. */
function writeTextReport(io: CliIO, report: EvalReport): void {
  const { outcome, results, threshold, thresholdOn, below, htmlFile } = report
  const { run, changes, historyFile, problems } = outcome
  io.write(formatEvalTable(run, changes, { color: colorEnabled(), width: 100 }))
  reportProblems(io, false, problems)
  const shown = (file: string): string => path.relative(io.cwd, file) || file
  // Only when this run added to it.
  if (historyFile !== undefined && results.length > 0) io.writeError(`history: ${shown(historyFile)}\n`)
  if (htmlFile !== undefined) io.writeError(`report: ${shown(htmlFile)}\n`)
  if (threshold !== undefined) io.writeError(`${thresholdVerdict(results, below, threshold, thresholdOn)}\n`)
}

/** The threshold's verdict line: none ran, every case met it, or which are below it. */
export function thresholdVerdict(
  results: EvalResult[],
  below: EvalResult[],
  threshold: number,
  on: "point" | "lower",
): string {
  const lower = on === "lower"
  const rate = `${Math.round(threshold * 100)}%${lower ? ", on the 95% interval's lower bound" : ""}`
  // A run that stopped before any trial (EVAL_NO_MODEL from opencode) met nothing.
  if (results.length === 0) return `no case ran, so none was held to the threshold (${rate})`
  if (below.length === 0) return `every case met the threshold (${rate})`
  const each = below.map(
    (result) =>
      `${result.case} on ${result.model} ${result.passed}/${result.runs}${lower ? ` (lower bound ${Math.round(result.interval.low * 100)}%)` : ""}`,
  )
  return `${below.length} of ${results.length} case x model results are below the threshold (${rate}): ${each.join(", ")}`
}

function historyOption(io: CliIO, none: boolean, given: string | undefined): { historyFile?: string | false } {
  if (none) return { historyFile: false }
  return given === undefined ? {} : { historyFile: path.resolve(io.cwd, given) }
}

/**
 * `--html FILE`, `--history FILE`: a file eval can write (and read), its missing folders created.
 * A folder, a FIFO or a read-only place there would fail only once every trial has run.
 */
function checkOutputFile(
  flag: string,
  file: string,
  example: string,
  kind: { owned: (start: string) => boolean; what: string; advice?: string },
): void {
  const advice = kind.advice ?? `give a file path you can write, such as ${example}`
  const fail = (problem: string) =>
    new ToolTesterError("USAGE", `${flag} ${file} ${problem}: ${advice}`, {
      data: { option: flag, file },
    })
  if (existsSync(file)) {
    const stats = statOf(file)
    if (!stats.isFile()) throw fail(stats.isDirectory() ? "is a folder" : "is not a regular file")
    try {
      accessSync(file, constants.R_OK | constants.W_OK)
    } catch {
      throw fail("cannot be written")
    }
    if (!kind.owned(fileStart(file))) throw fail(`exists and is not ${kind.what}, so eval leaves it alone`)
    return
  }
  let folder = path.dirname(file)
  while (!existsSync(folder) && path.dirname(folder) !== folder) folder = path.dirname(folder)
  if (!statOf(folder).isDirectory()) throw fail(`cannot be created (${folder} is a file)`)
  try {
    accessSync(folder, constants.W_OK)
  } catch {
    throw fail(`cannot be created (${folder} cannot be written)`)
  }
  // Root passes access() in /proc and /sys too, where no folder can be made.
  const problem = folderCreationProblem(path.dirname(file))
  if (problem !== undefined) throw fail(`cannot be created (${problem})`)
}

/** The first 64 KiB of a regular file, as text: enough to tell whose it is. */
function fileStart(file: string): string {
  const buffer = Buffer.alloc(64 * 1024)
  const descriptor = openSync(file, "r")
  try {
    return buffer.subarray(0, readSync(descriptor, buffer, 0, buffer.length, 0)).toString("utf8")
  } finally {
    closeSync(descriptor)
  }
}

/** Whether two absolute paths name one file: case-blind where the file system usually is (Windows, macOS). */
function samePath(one: string, other: string): boolean {
  const caseBlind = process.platform === "win32" || process.platform === "darwin"
  return caseBlind ? one.toLowerCase() === other.toLowerCase() : one === other
}

/** `0.8`, `80%` or `80`: a pass rate between 0 and 1. */
export function parseThreshold(text: string): number {
  const trimmed = text.trim()
  const percent = trimmed.endsWith("%")
  const digits = percent ? trimmed.slice(0, -1) : trimmed
  // Decimal digits only: Number() reads "" (a bare %) as 0, which would turn the gate off, and
  // 0x50, 0b1 or 1e1 as rates nobody typed as such.
  const number = /^(\d+(\.\d*)?|\.\d+)$/.test(digits) ? Number(digits) : Number.NaN
  const rate = percent || number > 1 ? number / 100 : number
  if (!Number.isFinite(number) || rate < 0 || rate > 1) {
    throw new ToolTesterError("USAGE", `--threshold ${shellWord(text)} is not a pass rate: give 0.8, 80% or 80`)
  }
  return rate
}

/** The arms beside the normal run: each variant of `--variants FILE`, then each `--without` tool. */
function evalArms(prepared: PreparedEval, io: CliIO, variantsFile: string | undefined, without: string[]): EvalArm[] {
  const arms: EvalArm[] = []
  if (variantsFile !== undefined) {
    const variants = readVariants(path.resolve(io.cwd, variantsFile), prepared.projectTools.tools)
    for (const [name, variant] of Object.entries(variants)) arms.push({ name, variant })
  }
  const known = [...prepared.projectTools.tools.map((tool) => tool.id), ...BUILTIN_TOOL_IDS]
  for (const id of new Set(without)) {
    if (!known.includes(id)) {
      throw new ToolTesterError(
        "EVAL_WITHOUT_UNKNOWN",
        `--without ${shellWord(id)}: no tool of that id${didYouMean(id, known)} (the project's tools: ${prepared.projectTools.tools.map((tool) => tool.id).join(", ") || "none"})`,
      )
    }
    arms.push({ name: `${WITHOUT_PREFIX}${id}`, without: [id] })
  }
  return arms
}

/** The results under `--threshold`: by their pass rate (`point`) or their 95% interval's lower bound (`lower`). */
export function belowThreshold(results: EvalResult[], threshold: number, on: "point" | "lower"): EvalResult[] {
  return results.filter((result) => (on === "lower" ? result.interval.low : passRate(result)) < threshold)
}

/** `--threshold-on point|lower`: what `--threshold` compares, the pass rate itself (default) or its 95% interval's lower bound. */
export function parseThresholdOn(text: string | undefined): "point" | "lower" {
  if (text === undefined || text === "point") return "point"
  if (text === "lower") return "lower"
  throw new ToolTesterError(
    "USAGE",
    `--threshold-on ${shellWord(text)} is not one of point, lower: point compares the pass rate, lower its 95% interval's lower bound`,
  )
}
