// A CLI command's one task: the command, and the input the engine loads the project with and
// works on (tasks/*-task.ts). It crosses to the engine as a `task` message (engine-client/protocol.ts).
import type { Failure } from "../fuzz/classify.ts"
import type { LintProvider } from "../lint/providers.ts"
import type { ModelSelection } from "../pipeline/builtins.ts"
import type { ModelModality } from "../pipeline/model-messages.ts"

/** Where the tools come from, as the CLI's shared flags say. */
export type ProjectInput = {
  directory: string
  /** False with --no-global. */
  global: boolean
  plugins: string[]
  model: ModelSelection
  /** --verbose: the engine sends what the opencode server behind input.client prints. */
  verbose?: boolean
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
  /** `--agent`: the agent the call runs for, as `opencode run --agent` chooses it. */
  agent?: string | undefined
  /** `--model-input`: what the model takes besides text, for what it receives of attachments. */
  modelInput?: ModelModality[] | undefined
  /** What context.ask() answers where a rule asks (doctor's one call denies); default allow. */
  ask?: "allow" | "deny" | undefined
}

/** `fuzz`: the tool, how many calls, the seed (chosen by the CLI, so a report can always name it) and each call's bound. */
export type FuzzInput = ProjectInput & {
  name: string
  runs: number
  seed: number
  timeoutMs: number
  /** After an engine was stopped: the failures it had found, and the calls not to make again. */
  found?: Array<Failure & { args: unknown; output: string }> | undefined
  skip?: Array<{ args: unknown; failure: Failure }> | undefined
}

/** `eval`: the project's tools as eval wraps and guards them; the tool files in `skip` are not imported. */
export type EvalToolsInput = { directory: string; skip: string[] }

/** `eval`: the case files, read where TS and JS ones may be imported; `skip`: files that ended or stalled an engine. */
export type EvalCasesInput = { directory: string; skip: string[]; toolIds: string[] | undefined }

/** `eval`: trials of cases from TS and JS case files (src/eval/types.ts' EvalTrial), graded where their predicates live. */
export type EvalGradeInput = { directory: string; skip: string[]; trials: unknown[] }

/** A CLI command's one task: the engine loads the project, does it, answers once, and is ended. */
export type Task =
  | { command: "list"; input: ProjectInput }
  | { command: "schema"; input: ProjectInput & { tool: string | undefined } }
  | { command: "doctor"; input: ProjectInput & { cwd: string; providers?: LintProvider[] | undefined } }
  | { command: "run"; input: RunInput }
  | { command: "fuzz"; input: FuzzInput }
  | { command: "eval-tools"; input: EvalToolsInput }
  | { command: "eval-cases"; input: EvalCasesInput }
  | { command: "eval-grade"; input: EvalGradeInput }

export type TaskCommand = Task["command"]
