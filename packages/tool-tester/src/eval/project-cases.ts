// The project's eval cases as eval's own process gets them: JSON case files are parsed here; TS and
// JS case files are user code, imported only in an engine's process (tasks/eval-cases-task.ts), as
// tool files are (project-tools.ts), so a case file that prints, calls process.exit or loops at
// import cannot end, stall or corrupt the eval. Their cases cross as JSON (a predicate as a
// placeholder, cases/case-json.ts), and their trials are graded in an engine too, once, after all
// trials. A case file that ends or stalls the engine is named (EVAL_CASE_INVALID), left out, and
// the others are read again without it; grading that cannot finish fails its trials and is a
// problem, so the gate fails closed.

import { readdir } from "node:fs/promises"
import path from "node:path"
import { chooseEngine } from "../engine-client/choose-engine.ts"
import { runTaskInEngine, startEngine, type TaskOutcome } from "../tasks/engine-task.ts"
import { loadFailure, loadTimeoutMs } from "../tasks/task-failure.ts"
import { ToolTesterError, type ToolTesterErrorCode } from "../errors.ts"
import type { EvalCasesPayload, EvalGradePayload } from "../tasks/eval-cases-task.ts"
import { gradeTrial } from "../eval-cases/grade-trial.ts"
import {
  type CaseProblem,
  DEFAULT_EVALS_FOLDER,
  displayPath,
  isCaseFile,
  loadEvalCases,
} from "../eval-cases/load-cases.ts"
import { MODULE_FILE } from "../eval-cases/read-case-file.ts"
import type { EvalCase, EvalTrial } from "../eval-cases/types.ts"
import type { GradedTrial } from "./types.ts"

export interface ProjectCases {
  cases: EvalCase[]
  problems: CaseProblem[]
  /** Case files (absolute) that ended or stalled an engine while imported: grading leaves them out too. */
  skip: string[]
}

/** Reads and checks the project's case files; TS and JS ones in an engine. */
export async function readProjectCases(
  directory: string,
  toolIds: string[] | undefined,
  env: Record<string, string | undefined> = process.env,
): Promise<ProjectCases> {
  const checked = toolIds === undefined ? {} : { toolIds }
  if (!(await hasModuleCaseFiles(directory))) {
    return { ...(await loadEvalCases(directory, { ...checked, moduleFiles: "leave" })), skip: [] }
  }
  const chosen = await chooseEngine({ env, directory })
  const timeout = loadTimeoutMs(env)
  const skip: string[] = []
  const leftOut: CaseProblem[] = []
  for (;;) {
    const outcome = await runTaskInEngine(
      { command: "eval-cases", input: { directory, skip, toolIds } },
      { loadTimeoutMs: timeout, runTimeoutMs: timeout, graceMs: 0 },
      startEngine("eval-cases", chosen.selection),
    )
    if (outcome.kind === "done") {
      const payload = outcome.payload as EvalCasesPayload
      return { cases: payload.cases, problems: [...payload.problems, ...leftOut], skip }
    }
    const file = outcome.loadingFile
    const stopped = (outcome.kind === "exited" || outcome.kind === "timeout") && outcome.phase === "load"
    if (stopped && file !== undefined && MODULE_FILE.test(file) && !skip.includes(file)) {
      skip.push(file)
      const shown = displayPath(directory, file)
      const message = `${shown}: ${importStopped(outcome, timeout)}; its cases are left out`
      leftOut.push({ code: "EVAL_CASE_INVALID", file: shown, message })
      continue
    }
    const failure = engineFailure(outcome, timeout)
    throw new ToolTesterError(failure.code, `eval cannot read its case files: ${failure.message}`)
  }
}

/**
 * Grades each trial against its case: cases from JSON files here, cases from TS and JS files in
 * one engine task, where their predicates are. When that task cannot finish, those trials fail
 * with the reason, and it is a problem. `signal` (Ctrl-C) ends that engine and throws.
 */
export async function gradeProjectTrials(
  directory: string,
  cases: readonly EvalCase[],
  trials: readonly EvalTrial[],
  skip: readonly string[],
  options: { env?: Record<string, string | undefined>; signal?: AbortSignal | undefined } = {},
): Promise<{ graded: GradedTrial[]; problems: CaseProblem[] }> {
  const { env = process.env, signal } = options
  const byName = new Map(cases.map((evalCase) => [evalCase.name, evalCase]))
  const inEngine = trials.filter((trial) => fromModule(byName.get(trial.case)))
  const grades = new Map<EvalTrial, GradedTrial["grade"]>()
  const problems: CaseProblem[] = []
  if (inEngine.length > 0) {
    const chosen = await chooseEngine({ env, directory })
    const timeout = loadTimeoutMs(env)
    signal?.throwIfAborted()
    const started = startEngine("eval-grade", chosen.selection)
    const stop = () => started.end()
    signal?.addEventListener("abort", stop, { once: true })
    const outcome = await runTaskInEngine(
      { command: "eval-grade", input: { directory, skip: [...skip], trials: [...inEngine] } },
      { loadTimeoutMs: timeout, runTimeoutMs: timeout, graceMs: 0 },
      started,
    ).finally(() => signal?.removeEventListener("abort", stop))
    signal?.throwIfAborted()
    if (outcome.kind === "done") {
      const payload = outcome.payload as EvalGradePayload
      for (const [index, trial] of inEngine.entries()) {
        const file = byName.get(trial.case)?.source?.file
        grades.set(trial, payload.grades[index] ?? notFound(trial.case, file))
      }
    } else {
      const files = [...new Set(inEngine.map((trial) => byName.get(trial.case)?.source?.file))].join(", ")
      const reason = gradingStopped(outcome, timeout, directory)
      const message = `${reason}; the trials of the cases of ${files} count as failed`
      problems.push({ code: "EVAL_CASE_INVALID", file: files, message })
      for (const trial of inEngine) grades.set(trial, { pass: false, reasons: [`EVAL_CASE_INVALID: ${reason}`] })
    }
  }
  const graded = trials.map((trial) => ({
    ...trial,
    grade: grades.get(trial) ?? gradeTrial(byName.get(trial.case)!, trial),
  }))
  return { graded, problems }
}

// --- internal ---

function fromModule(evalCase: EvalCase | undefined): boolean {
  return evalCase?.source !== undefined && MODULE_FILE.test(evalCase.source.file)
}

async function hasModuleCaseFiles(directory: string): Promise<boolean> {
  try {
    const names = await readdir(path.resolve(directory, DEFAULT_EVALS_FOLDER))
    return names.some((name) => isCaseFile(name) && MODULE_FILE.test(name))
  } catch {
    // The folder's own problem is loadEvalCases' to report.
    return false
  }
}

/** Why importing a case file stopped the engine: it exited, crashed or did not finish in time. */
function importStopped(outcome: TaskOutcome, timeout: number): string {
  if (outcome.kind === "timeout")
    return `importing it did not finish within ${timeout} ms (a top-level await that never settles, or a loop at import time): do that work in a predicate, or remove it`
  if (outcome.kind !== "exited") return "the engine stopped while it was imported"
  if (outcome.crash !== undefined) return `the engine ended while it was imported: ${outcome.crash}`
  if (outcome.signal !== undefined) return `the engine was ended by ${outcome.signal} while it was imported`
  return `it ended the process while it was imported (process.exit(${outcome.exitCode})): remove the process.exit call`
}

/** Why grading in the engine did not answer, naming the case file when it was being imported. */
function gradingStopped(outcome: TaskOutcome, timeout: number, directory: string): string {
  const file = outcome.loadingFile
  const stopped = (outcome.kind === "exited" || outcome.kind === "timeout") && outcome.phase === "load"
  if (stopped && file !== undefined) return `${displayPath(directory, file)}: ${importStopped(outcome, timeout)}`
  if (outcome.kind === "timeout")
    return `grading did not finish within ${timeout} ms: a predicate that never returns (a loop)? Predicates must answer at once`
  if (outcome.kind === "exited")
    return `the engine grading the trials ended (${outcome.crash ?? outcome.signal ?? `process.exit(${outcome.exitCode})`}): a predicate that ends the process?`
  return engineFailure(outcome, timeout).message
}

function engineFailure(outcome: TaskOutcome, timeout: number): { code: ToolTesterErrorCode; message: string } {
  const failure = loadFailure(outcome, timeout) ?? {
    code: "ENGINE_FAILED",
    message: "the engine reading the case files ended without an answer",
  }
  return { code: failure.code as ToolTesterErrorCode, message: failure.message }
}

function notFound(name: string, file: string | undefined): GradedTrial["grade"] {
  return {
    pass: false,
    reasons: [
      `EVAL_CASE_INVALID: the case ${JSON.stringify(name)} is no longer in ${file ?? "its case file"}: it was edited during the eval; run it again`,
    ],
  }
}
