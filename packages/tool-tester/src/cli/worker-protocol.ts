// What the CLI thread and the worker that loads and runs user code say to each other. Tool files
// are user code: they are only ever imported in the worker, so a file that prints, exits or never
// finishes cannot break the CLI's report.
import type { ToolTesterErrorCode } from "../errors.ts"
import type { ModelSelection } from "../pipeline/builtins.ts"

/** Where the tools come from, as the shared flags say. */
export type ProjectInput = {
  directory: string
  /** False with --no-global. */
  global: boolean
  plugins: string[]
  model: ModelSelection
}

export type RunArgs =
  | { form: "json"; value: unknown }
  | { form: "raw"; text: string }
  | { form: "pairs"; pairs: string[] }
  | { form: "none" }

export type RunInput = ProjectInput & {
  name: string
  args: RunArgs
  validate: boolean
  deny: string[]
  maxLines: number | undefined
  maxBytes: number | undefined
  timeoutMs: number
  dataDirectory: string | undefined
}

export type TaskCommand = Task["command"]

/** `fuzz`: the tool, how many calls, the seed (chosen by the CLI, so a report can always name it) and each call's bound. */
export type FuzzInput = ProjectInput & { name: string; runs: number; seed: number; timeoutMs: number }

export type Task =
  | { command: "list"; input: ProjectInput }
  | { command: "schema"; input: ProjectInput & { tool: string | undefined } }
  | { command: "doctor"; input: ProjectInput & { cwd: string } }
  | { command: "run"; input: RunInput }
  | { command: "fuzz"; input: FuzzInput }

/** The tool a run reaches: the name as called and the id that runs (`invalid` when rerouted). */
export type Reached = { name: string; id: string }

export type WorkerMessage =
  /** A tool or plugin file is about to be imported (user code runs now). */
  | { type: "loading"; file: string }
  /** The tool files are loaded; for `run`, the tool is about to be called. */
  | { type: "loaded"; reached: Reached | undefined }
  /** The task's result, as JSON text (user values made JSON-safe in the worker). */
  | { type: "done"; payload: string }
  /** The task failed before reaching a tool (a ToolTesterError or an unexpected error). */
  | { type: "failed"; error: { code: ToolTesterErrorCode | "INTERNAL"; message: string } }

/** Given at start-up; the task itself follows as the first message. */
export type WorkerData = { command: TaskCommand; capture: SharedArrayBuffer }
