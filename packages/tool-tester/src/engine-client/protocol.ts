// What the Node side (the CLI, or the library inside a test runner) and an engine's process say to
// each other: one protocol for both engines, one JSON text a line (frames.ts). The Node side writes
// on the engine's stdin; the engine answers on its file descriptor 3, each message with the run's
// secret, which the Node side gave it first, before any user module loaded (engine-channel.ts), so
// that what a tool writes there is told apart and refused (docs/opencode-contract.md#what-a-tool-can-do-to-the-harness). User values cross as JSON text made safe in the engine (cycles, bigints), never
// as live objects. Tool files are user code: they are only ever imported in the engine, so a file
// that prints, exits or never finishes cannot break the report.
import type { ToolTesterErrorCode } from "../errors.ts"
import type { RawToolCall } from "../pipeline/repair-call.ts"
import type { EngineInfo } from "../runtime/here.ts"
import type { ListOptions, LoadToolsOptions, RunOptions } from "../types.ts"

/** A CLI command's one task as it crosses: tasks/task.ts says which commands and inputs there are. */
type TaskMessage = { command: string; input: unknown }

/** The tool a run reaches: the name as called and the id that runs (`invalid` when rerouted). */
export type Reached = {
  name: string
  id: string
  /** fuzz: the call about to be made or the failure just found, as JSON text (src/tasks/fuzz-task.ts). */
  progress?: string
  /**
   * run: the arguments the call sends, as JSON text, for the report of a call that never answers
   * (the tool ended or stalled the engine); left out when too long for one message (src/tasks/run-task.ts).
   */
  args?: string
}

/** RunOptions as they cross: the abort signal becomes an `abort` message. */
export type RemoteRunOptions = Omit<RunOptions, "signal">

/** The project's loading options as they cross (the engine itself is already chosen). */
export type RemoteLoadOptions = Omit<LoadToolsOptions, "engine" | "engineBinary" | "client" | "onServerLog"> & {
  /** The library was given a client stub: the engine's plugins call it through `client` messages. */
  relayClient?: boolean
}

/** A library call: the project stays loaded in the engine between calls. */
export type EngineCall =
  | { method: "load"; params: RemoteLoadOptions }
  | { method: "schemas"; params: ListOptions }
  | { method: "doctor"; params: { cwd: string } }
  | { method: "run"; params: { name: string; args: unknown; options: RemoteRunOptions } }
  | { method: "call"; params: { call: RawToolCall; options: RemoteRunOptions } }

/** An error as it crosses: a ToolTesterError's code, or INTERNAL with the stack. */
export type CrossingError = { code: ToolTesterErrorCode | "INTERNAL"; message: string; data?: Record<string, unknown> }

/** The first line the engine reads, before anything else and before any user module loads. */
export type Hello = {
  type: "hello"
  secret: string
  /**
   * A file in the engine's temporary folder, named for this run only: the engine makes it just
   * before it ends with CHANNEL_CLOSED_EXIT_CODE (channel-closed.ts), so that a tool's own
   * `process.exit(87)` is not taken for that. Known only to the two ends, as the secret is.
   */
  closedFile?: string
}

export type ToEngine =
  /** The CLI's one task (tasks/task.ts); the process is ended after it answers. */
  | { type: "task"; cwd: string; task: TaskMessage }
  /**
   * A library call; answered by a `reply` with the same id. `aborted`: its signal was aborted before
   * it was sent, so the tool's `context.abort` is aborted from the start (an `abort` message would
   * reach the engine only after a tool that never awaits I/O had returned).
   */
  | ({ type: "call"; id: number; aborted?: true } & EngineCall)
  /** Fires the abort signal of a running `run` or `call`. */
  | { type: "abort"; id: number }
  /** The answer of the library's client stub to a `client` message. */
  | { type: "client-reply"; id: number; value: string }
  | { type: "client-reply"; id: number; error: CrossingError }

export type FromEngine =
  /** Sent once at start-up: which runtime this is. */
  | { type: "ready"; engine: EngineInfo }
  /** A tool or plugin file is about to be imported (user code runs now). */
  | { type: "loading"; file: string }
  /** A plugin file's function (its export) is about to be called: its init runs now. */
  | { type: "loading"; file: string; init: string }
  /** The task's tool files are loaded; for `run`, the tool is about to be called. */
  | { type: "loaded"; reached: Reached | undefined }
  /**
   * The task's project has loaded: the module files its load imported (ToolProject.modules), for
   * `run --watch`; sent again, with the whole grown list, before the answer of a task or call whose
   * tool imported more (an `import()` inside `execute`).
   */
  | { type: "modules"; files: string[] }
  /**
   * The task's result, as JSON text (user values made JSON-safe in the engine). `unflushed`: what
   * the tools printed was not all in the pipes within the engine's bound; it still goes there while
   * the engine lives.
   */
  | { type: "done"; payload: string; unflushed?: true }
  /** The task failed before reaching a tool (`unflushed` as for `done`). */
  | { type: "failed"; error: CrossingError; unflushed?: true }
  | { type: "reply"; id: number; value: string }
  | { type: "reply"; id: number; error: CrossingError }
  /** A line the opencode server behind `input.client` printed (with --verbose). */
  | { type: "server-log"; line: string }
  /** A plugin called `input.client`, which is the library's stub: the Node side answers with `client-reply`. */
  | { type: "client"; id: number; method: string; args: string }
  /** The engine read a line on its stdin that the Node side did not write (a tool wrote into the pipe): it stops. */
  | { type: "refused"; reason: string }
  /**
   * Something in the engine's process closed or replaced its stdin (descriptor 0): the engine reads
   * nothing more, answers what it was given (calls up to `lastCall`), and the Node side gives it
   * nothing more.
   */
  | { type: "stdin-closed"; lastCall: number }
  /**
   * Call `id` was answered TOOL_TIMEOUT, and its tool has still not settled `graceMs` after its
   * abort signal fired: it ignores the signal, and what it does goes on here. The Node side ends
   * this engine (and what the tool started), as `run` does.
   */
  | { type: "unstopped"; id: number; name: string; graceMs: number }
