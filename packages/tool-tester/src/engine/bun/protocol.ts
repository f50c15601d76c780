// What the Node side (the CLI, or the library inside a test runner) and the bun engine's process say
// to each other, over Node's IPC channel with JSON serialization (which Bun speaks too). User
// values cross as JSON text made safe in the engine (cycles, bigints), never as live objects.
import type { Task, WorkerMessage } from "../../cli/worker-protocol.ts"
import type { ListOptions } from "../../list-tools.ts"
import type { LoadToolsOptions } from "../../load-tools.ts"
import type { RawToolCall } from "../../pipeline/repair-call.ts"
import type { RunOptions } from "../../run-tool.ts"
import type { EngineInfo } from "../choose-engine.ts"

/** RunOptions as they cross: the abort signal becomes an `abort` message. */
export type RemoteRunOptions = Omit<RunOptions, "signal">

/** The project's loading options as they cross (the engine itself is already chosen). */
export type RemoteLoadOptions = Omit<LoadToolsOptions, "engine" | "engineBinary">

export type EngineCall =
  | { method: "load"; params: RemoteLoadOptions }
  | { method: "schemas"; params: ListOptions }
  | { method: "run"; params: { name: string; args: unknown; options: RemoteRunOptions } }
  | { method: "call"; params: { call: RawToolCall; options: RemoteRunOptions } }

export type ToEngine =
  /** The CLI's one task (list, schema, doctor or run); the process ends after answering. */
  | { type: "task"; cwd: string; task: Task }
  /** A library call; answered by a `reply` with the same id. */
  | ({ type: "call"; id: number } & EngineCall)
  /** Fires the abort signal of a running `run` or `call`. */
  | { type: "abort"; id: number }

export type FromEngine =
  | WorkerMessage
  /** Sent once at start-up: which Bun this is. */
  | { type: "ready"; engine: EngineInfo }
  | { type: "reply"; id: number; value: string }
  | { type: "reply"; id: number; error: { code: string; message: string; data?: Record<string, unknown> } }
  /** An error escaped the tool (a throw in a timer, a rejection nobody handles): the process ends next. */
  | { type: "crash"; message: string }
