// What every command shares: the I/O it is given (only main.ts reads `process`), the flags common
// to all commands, and how failures are printed.
import { folderProblem } from "../_folder-problem.ts"
import path from "node:path"
import type { ParseArgsConfig } from "node:util"
import { parseArgs } from "node:util"
import type { StartedEngine } from "../tasks/engine-task.ts"
import { runTaskInEngine } from "../tasks/engine-task.ts"
import type { ProjectInput, Task } from "../tasks/task.ts"
import type { Diagnostic } from "../types.ts"
import { exitStatusOfSignal } from "../engine-client/spawn-engine.ts"
import type { EngineReport, TaskFailure } from "../tasks/task-failure.ts"
import { engineReport, loadFailure, loadTimeoutMs } from "../tasks/task-failure.ts"
import { ToolTesterError } from "../errors.ts"
import { modelSelection } from "../pipeline/model-selection.ts"
import { EXIT_LOAD_FAILED, EXIT_OK, exitCodeFor } from "./exit-codes.ts"
import type { FlagContext } from "./flag-errors.ts"
import { emptyOption, emptyOptionError, flagError } from "./flag-errors.ts"
import { projectDirectory } from "./project-directory.ts"
import { formatFailure } from "./report.ts"

/** The outside world as a command sees it. */
export type CliIO = {
  cwd: string
  /** The bin's path as started (`process.argv[1]`), for the commands the CLI prints (invocation.ts). */
  bin?: string
  env: Record<string, string | undefined>
  stdoutIsTTY: boolean
  /** Whether stderr is a terminal: progress lines are drawn only then. */
  stderrIsTTY: boolean
  write: (text: string) => void
  writeError: (text: string) => void
  /** Changes the working directory (tools see `process.cwd()` = the project, as under opencode). */
  chdir: (directory: string) => void
  /**
   * Calls `handler` on the first Ctrl-C (SIGINT), SIGTERM or SIGHUP instead of ending the command
   * at once (a second one does not wait for it); returns the function that stops listening.
   */
  onInterrupt: (handler: (signal: NodeJS.Signals) => void) => () => void
  /**
   * Calls `hooks.before` just before Node prints a warning of the CLI's own process on stderr
   * (which it does itself, not through `writeError`), and `hooks.after` just after; returns the
   * function that stops. A progress line erases and redraws itself there (node-warnings.ts). Only
   * the bin's own process has it.
   */
  aroundWarnings?: (hooks: WarningHooks) => () => void
}

/** What is done around Node's printing of a warning (CliIO's `aroundWarnings`). */
export type WarningHooks = { before: () => void; after: () => void }

/** The exit code after Ctrl-C, as shells report a process ended by SIGINT. */
const EXIT_INTERRUPTED = 130

/** The exit code after `signal` interrupted a command: 128 + its number, as shells report it (130 for Ctrl-C). */
export function exitInterrupted(signal: NodeJS.Signals | undefined): number {
  return signal === undefined ? EXIT_INTERRUPTED : exitStatusOfSignal(signal)
}

export type Failure = TaskFailure

/**
 * node:util parseArgs in strict mode, with its errors turned into usage errors that say what was
 * meant (the closest option; for run, a tool's argument as key=value).
 */
export function parseFlags<T extends ParseArgsConfig>(
  config: T,
  context: FlagContext,
): ReturnType<typeof parseArgs<T>> {
  let parsed: ReturnType<typeof parseArgs<T>>
  try {
    parsed = parseArgs(config)
  } catch (error) {
    throw flagError(error, config, context)
  }
  const empty = emptyOption(parsed.values)
  if (empty !== undefined) throw emptyOptionError(empty, context)
  return parsed
}

/**
 * The project the shared flags describe; relative paths are taken from the working directory.
 * Without --dir, inside a `.opencode` folder, the project is its parent (project-directory.ts).
 */
export function projectInput(
  values: {
    dir?: string | undefined
    plugin?: string[] | undefined
    "no-global"?: boolean | undefined
    json?: boolean | undefined
    verbose?: boolean | undefined
  },
  model: { provider?: string | undefined; model?: string | undefined },
  io: CliIO,
): ProjectInput {
  const selection = modelSelection(model)
  const { directory, notice } = projectDirectory(io.cwd, values.dir)
  if (notice && values.json !== true) io.writeError(`${notice}\n`)
  const problem = folderProblem(directory)
  if (problem !== undefined) {
    throw new ToolTesterError("PATH_NOT_FOUND", `${directory} ${problem}; pass the project directory with --dir`, {
      data: { directory },
    })
  }
  return {
    directory,
    global: values["no-global"] !== true,
    // A relative plugin path means "from here", like every other path on the command line.
    plugins: (values.plugin ?? []).map((spec) => (spec.startsWith(".") ? path.resolve(io.cwd, spec) : spec)),
    model: selection,
    verbose: values.verbose === true,
  }
}

/** With --verbose, what the opencode server behind `input.client` prints goes to stderr, marked. */
export function serverLogPrinter(io: CliIO, task: Task): { onServerLog?: (line: string) => void } {
  return "verbose" in task.input && task.input.verbose
    ? { onServerLog: (line) => io.writeError(`[opencode serve] ${line}\n`) }
    : {}
}

/** Prints a failure: one line of JSON on stderr with --json, a readable line otherwise. */
export function reportFailure(io: CliIO, json: boolean, failure: Failure): void {
  io.writeError(
    json ? `${JSON.stringify({ error: { code: failure.code, message: failure.message } })}\n` : formatFailure(failure),
  )
}

/** A tool or plugin file that ended the engine while it was imported, as list, schema and doctor report it. */
export type EndedWhileLoading = { code: "IMPORT_FAILED"; message: string; file: string | undefined }

/**
 * Runs a list, schema or doctor task in the worker. Returns its payload, or the exit code after
 * printing why it failed (an error, or loading that timed out or ended the worker). With --json, a
 * file that ended the engine while it was imported still gets the command's document on stdout, as
 * a file that throws at import does: `nothingLoaded` makes it (the engine is added).
 */
export async function performTask<T>(
  io: CliIO,
  json: boolean,
  task: Task,
  worker: StartedEngine | undefined,
  nothingLoaded?: (problem: EndedWhileLoading) => Record<string, unknown>,
): Promise<{ payload: T; engine: EngineReport; exitCode?: never } | { exitCode: number }> {
  const loadTimeout = loadTimeoutMs(io.env)
  const outcome = await runTaskInEngine(
    task,
    { loadTimeoutMs: loadTimeout, runTimeoutMs: loadTimeout, graceMs: 0 },
    worker,
    serverLogPrinter(io, task),
  )
  const failure = loadFailure(outcome, loadTimeout)
  if (outcome.kind === "done" && !failure) return { payload: outcome.payload as T, engine: engineReport(outcome) }
  const reported = failure ?? { code: "INTERNAL", message: "the worker ended without an answer" }
  if (json && nothingLoaded && failure?.code === "IMPORT_FAILED" && outcome.kind === "exited" && outcome.started) {
    const problem: EndedWhileLoading = { code: "IMPORT_FAILED", message: failure.message, file: outcome.loadingFile }
    io.write(`${JSON.stringify({ ...nothingLoaded(problem), engine: outcome.engine })}\n`)
  }
  reportFailure(io, json, reported)
  return { exitCode: exitCodeFor(reported.code) }
}

/** list's and schema's diagnostic for a file that ended the engine while it was imported. */
export function endedWhileLoadingDiagnostic(problem: EndedWhileLoading): Diagnostic {
  const { code, message, file } = problem
  return file === undefined
    ? { code, severity: "error", message }
    : { code, severity: "error", message, file, data: { file } }
}

/** Exit 3 when there are errors (with the JSON failure line naming the first), else 0. */
export function exitForProblems(
  io: CliIO,
  json: boolean,
  problems: ReadonlyArray<Failure & { severity: string }>,
): number {
  const errors = problems.filter((problem) => problem.severity === "error")
  const first = errors[0]
  if (!first) return EXIT_OK
  if (json) {
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : ""
    reportFailure(io, true, { code: first.code, message: first.message + more })
  }
  return EXIT_LOAD_FAILED
}
