// One eval of a project, as the CLI and the vitest entry run it: the cases (checked against the
// project's tools), the trials in the real opencode, their grades, the results per case and model,
// and the history (read, compared with, added to). What to print is the caller's.

import { didYouMean } from "../did-you-mean.ts"
import { ToolTesterError } from "../errors.ts"
import type { EvalCase } from "../eval-cases/types.ts"
import { BUILTIN_TOOL_IDS } from "../pipeline/builtins.ts"
import { gradeProjectTrials, type ProjectCases, readProjectCases } from "./project-cases.ts"
import { type ProjectTools, readProjectTools } from "./project-tools.ts"
import { appendHistory, compareWithPrevious, defaultHistoryFile, readHistory, summarizeTrials } from "./report/index.ts"
import { type EvalRunnerOptions, runEvalTrials } from "./runner/index.ts"
import { checkTrialCount } from "./trial-count.ts"
import type { EvalRun, GradedTrial, HistoryEntry, ResultChange } from "./types.ts"

interface EvalProblem {
  code: string
  message: string
}

export interface PreparedEval {
  directory: string
  cases: EvalCase[]
  /** Case files or cases that could not be read, and tools a case names that do not exist. */
  problems: EvalProblem[]
  /** The project's tools, read in an engine's process (eval imports no user code in its own). */
  projectTools: ProjectTools
  /** TS and JS case files left out (they ended or stalled the engine that imported them). */
  skippedCaseFiles: ProjectCases["skip"]
}

/** Reads the project's cases (all, or those named) and checks the tool ids they name. */
export async function prepareEval(directory: string, caseNames: readonly string[] = []): Promise<PreparedEval> {
  const projectTools = await readProjectTools(directory)
  const { tools, error } = projectTools
  // With a tool file that fails to load, its tools are missing from the list: then ids are not checked.
  // The project's own first: a typo of one of them ("gret") is suggested as it ("greet"), not as the
  // built-in as close to it ("grep").
  const toolIds = error === undefined ? [...tools.map((tool) => tool.id), ...BUILTIN_TOOL_IDS] : undefined
  const loaded = await readProjectCases(directory, toolIds)
  const problems: EvalProblem[] = loaded.problems.map((problem) => ({ code: problem.code, message: problem.message }))
  // Each tool file left out is named here, once, as EVAL_TOOL_NOT_WRAPPED (the runner, given these
  // tools, does not name it again); IMPORT_FAILED only for a load error of no tool file.
  if (projectTools.problems.length > 0) {
    problems.push(
      ...projectTools.problems.map(({ code, message }, index) => ({
        code,
        message: index === 0 ? `${message} (the tool ids the cases name were not checked)` : message,
      })),
    )
  } else if (error !== undefined) {
    problems.push({ code: "IMPORT_FAILED", message: `${error} (the tool ids the cases name were not checked)` })
  }
  const cases = selectCases(loaded.cases, caseNames, loaded.problems, problems)
  return { directory, cases, problems, projectTools, skippedCaseFiles: loaded.skip }
}

export interface EvalProjectOptions extends Omit<EvalRunnerOptions, "directory" | "cases"> {
  prepared: PreparedEval
  /** The history file; false: neither read nor added to (default: `.opencode/evals/history.jsonl`). */
  historyFile?: string | false
}

export interface EvalProjectResult {
  run: EvalRun
  /** By `${case}\u0000${model}`: the previous run of that case and model, and what changed. */
  changes: Map<string, ResultChange>
  /** The history including this run (empty without a history file). */
  history: HistoryEntry[]
  historyFile: string | undefined
  /** The cases' problems, then the models' (unknown model, ...). */
  problems: EvalProblem[]
}

export async function runEvalProject(options: EvalProjectOptions): Promise<EvalProjectResult> {
  const { prepared, historyFile: historyOption, ...runnerOptions } = options
  checkTrialCount(prepared.cases, { runs: options.runs, models: options.models, arms: options.arms?.length })
  const startedAt = new Date()
  const runner = await runEvalTrials({
    ...runnerOptions,
    directory: prepared.directory,
    cases: prepared.cases,
    projectTools: prepared.projectTools,
  })
  // Once, after all trials: cases from TS and JS files are graded in an engine (project-cases.ts).
  const grading = await gradeProjectTrials(
    prepared.directory,
    prepared.cases,
    runner.trials,
    prepared.skippedCaseFiles,
    {
      signal: runnerOptions.signal,
    },
  )
  const graded: GradedTrial[] = grading.graded
  const run: EvalRun = {
    id: `${startedAt.toISOString().replace(/[:.]/g, "-")}-${process.pid}`,
    startedAt: startedAt.toISOString(),
    durationMs: Date.now() - startedAt.getTime(),
    opencodeVersion: runner.opencodeVersion,
    results: summarizeTrials(prepared.cases, graded, runner.tools),
  }
  const problems = [
    ...prepared.problems,
    ...runner.problems,
    ...grading.problems.map(({ code, message }) => ({ code, message })),
  ]
  if (historyOption === false) return { run, changes: new Map(), history: [], historyFile: undefined, problems }
  const historyFile = historyOption ?? defaultHistoryFile(prepared.directory)
  // The history keeps the normal run: variants and --without runs are compared within the run.
  const normal = { ...run, results: run.results.filter((result) => result.arm === undefined) }
  const added = await addToHistory(historyFile, normal)
  const changes = compareWithPrevious(normal.results, added.before)
  if (added.problem !== undefined) problems.push(added.problem)
  return {
    run,
    changes,
    history: added.history,
    historyFile: added.problem === undefined ? historyFile : undefined,
    problems,
  }
}

/**
 * Reads the history, adds the run to it, and reads it back. A file that cannot be read or take the
 * run once every trial has run (its folder became a file meanwhile, a full disk) is a problem
 * beside the run, never an error that loses it: the history is then what could be read before.
 */
export async function addToHistory(
  file: string,
  run: EvalRun,
): Promise<{ before: HistoryEntry[]; history: HistoryEntry[]; problem?: EvalProblem }> {
  let before: HistoryEntry[] = []
  try {
    before = await readHistory(file)
    await appendHistory(file, run)
    return { before, history: await readHistory(file) }
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    return {
      before,
      history: before,
      problem: {
        code: "USAGE",
        message: `the history file ${file} could not be read or added to after the run (${reason}); this run is not in it: give a history file you can write (--history FILE), or --no-history`,
      },
    }
  }
}

/** The pass rate of one case on one model (0 when it has no runs). */
export function passRate(result: { passed: number; runs: number }): number {
  return result.runs === 0 ? 0 : result.passed / result.runs
}

// --- internal ---

/**
 * The cases named (all without names). A name no case has is USAGE; but a case that could not be
 * read is named among the problems, so its name is not "no case" (the problems say what is wrong
 * with it), and with a case file that could not be read at all the name may be one of its cases:
 * then it is a problem beside the others, which are all reported.
 */
function selectCases(
  cases: EvalCase[],
  names: readonly string[],
  caseProblems: ReadonlyArray<{ case?: string | undefined }>,
  problems: EvalProblem[],
): EvalCase[] {
  if (names.length === 0) return cases
  const known = cases.map((evalCase) => evalCase.name)
  const invalid = new Set(caseProblems.flatMap((problem) => (problem.case === undefined ? [] : [problem.case])))
  const unreadFiles = caseProblems.some((problem) => problem.case === undefined)
  for (const name of names) {
    if (known.includes(name) || invalid.has(name)) continue
    const message = `no eval case named "${name}"${didYouMean(name, known)} (cases: ${known.join(", ") || "none"})`
    if (!unreadFiles) throw new ToolTesterError("USAGE", message)
    problems.push({ code: "USAGE", message: `${message}; it may be in a case file that could not be read` })
  }
  return cases.filter((evalCase) => names.includes(evalCase.name))
}
