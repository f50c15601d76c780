// Runs a CLI command's task (load the tools, then list, describe, diagnose, run or fuzz them) in an
// engine's process, so that user code cannot break the CLI: process.exit only ends the engine, a
// busy loop is stopped from outside, prints are captured (first 64 KiB per stream, the rest
// counted), a tool that never settles is aborted, then killed, and the engine's process group is
// ended with it, so nothing a tool started outlives the run.
import type { EngineSelection } from "../engine-client/choose-engine.ts"
import type { EngineInfo } from "../runtime/here.ts"
import type { EngineConnection } from "../engine-client/engine-connection.ts"
import { endEngineProcess, startEngineProcess } from "../engine-client/engine-process.ts"
import type { BunSource } from "../engine-client/find-bun.ts"
import type { Reached } from "../engine-client/protocol.ts"
import type { Task, TaskCommand } from "./task.ts"
import type { CapturedConsole } from "../runtime/stream-capture.ts"

export type TaskOutcome = {
  console: CapturedConsole
  durationMs: number
  engine: EngineInfo
  /** Where the bun engine's Bun was found. */
  engineSource?: BunSource
  /** The tool or plugin file being imported when loading stopped (timeout, exit). */
  loadingFile?: string
  /** The plugin function (its export) of that file whose init was running then, once it was imported. */
  loadingInit?: string
} & (
  | { kind: "done"; payload: unknown }
  /** An error; in `run` (the tool was reached) also the channel failing while the tool ran (CHANNEL_FORGED, ...). */
  | { kind: "failed"; error: { code: string; message: string }; phase: Phase; reached: Reached | undefined }
  /**
   * Nothing came back in time: in `load` while importing the tool files, in `run` while the tool ran.
   * `started` is false when the engine never said it was up (`ready`): no file was being loaded.
   */
  | { kind: "timeout"; phase: Phase; reached: Reached | undefined; started: boolean }
  /** The engine ended before answering: process.exit (with its code), a signal, or a crash (with its message). */
  | {
      kind: "exited"
      phase: Phase
      reached: Reached | undefined
      exitCode: number
      /** The signal that ended the engine (SIGKILL from the kernel when memory runs out). */
      signal?: string
      crash: string | undefined
      /** False when the engine ended before it was up (a binary that is not a Bun): no user code ran. */
      started: boolean
    }
)

export type Phase = "load" | "run"

export type TaskTimeouts = {
  /** How long loading the tool files may take (from when the task is given). */
  loadTimeoutMs: number
  /** Then how long the tool may run. */
  runTimeoutMs: number
  /**
   * After the timeout: how long the tool gets to react to its abort signal (fired inside the
   * engine at the timeout) before the engine is stopped.
   */
  graceMs: number
}

/** An engine started ahead of its task, so its start-up overlaps the CLI's own argument handling. */
export type StartedEngine = {
  command: TaskCommand
  selection: EngineSelection
  /** The connection to it, once its modules have loaded (they load while the engine starts). */
  connection: Promise<EngineConnection>
  /** Where the bun engine's Bun was found; undefined for the node engine. */
  source: BunSource | undefined
  /** Ends the engine and everything it started, at once. */
  end(): void
}

/**
 * Starts the engine for a command, in the working directory. It loads what a task needs, then
 * waits for the task; it does not keep this process alive until a task is given to it. Its process
 * starts first: the connection's own modules (its channel, its console capture: ~40 KB) load
 * while the engine starts up (test/cli/lean-start.test.ts).
 */
export function startEngine(command: TaskCommand, selection: EngineSelection = { name: "node" }): StartedEngine {
  const options = { cwd: process.cwd(), console: "pipe" } as const
  const started = startEngineProcess(selection, options)
  const connection = import("../engine-client/engine-connection.ts").then(({ EngineConnection }) => {
    const connected = new EngineConnection(selection, options, started)
    connected.keepAlive(false)
    return connected
  })
  return {
    command,
    selection,
    connection,
    source: selection.name === "bun" ? selection.location.source : undefined,
    end: () => endEngineProcess(started),
  }
}

/** Gives the task to a started engine (or a new node one) and waits for the outcome, within the timeouts. */
export async function runTaskInEngine(
  task: Task,
  timeouts: TaskTimeouts,
  started: StartedEngine = startEngine(task.command),
  listeners: {
    onServerLog?: (line: string) => void
    onLoaded?: (reached: Reached | undefined) => void
    /** The module files the task's load imported (ToolProject.modules), once it has loaded. */
    onModules?: (files: string[]) => void
  } = {},
): Promise<TaskOutcome> {
  if (started.command !== task.command)
    throw new Error(`the engine was started for ${started.command}, not ${task.command}`)
  const connection = await started.connection
  const startedAt = performance.now()
  connection.keepAlive(true)
  connection.send({ type: "task", cwd: process.cwd(), task })

  return new Promise((resolve) => {
    let phase: Phase = "load"
    let reached: Reached | undefined
    let reachedAt: number | undefined
    let loadingFile: string | undefined
    let loadingInit: string | undefined
    let settled = false
    let timer: NodeJS.Timeout | undefined

    const finish = (outcome: DistributiveOmit<TaskOutcome, Reported>, waitMs = 0, unflushed = false) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      // From when the tool was reached, else from when the task was given.
      const durationMs = Math.round(performance.now() - (reachedAt ?? startedAt))
      void connection.stop(waitMs, unflushed).then(() =>
        resolve({
          ...outcome,
          console: connection.console(),
          durationMs,
          engine: connection.engine(),
          ...(started.source === undefined ? {} : { engineSource: started.source }),
          ...(loadingFile === undefined || phase !== "load" ? {} : { loadingFile }),
          ...(loadingInit === undefined || phase !== "load" ? {} : { loadingInit }),
        }),
      )
    }
    const arm = (milliseconds: number) => {
      clearTimeout(timer)
      timer = setTimeout(() => finish({ kind: "timeout", phase, reached, started: connection.started }), milliseconds)
    }

    arm(timeouts.loadTimeoutMs)
    connection.onMessage((message) => {
      if (message.type === "server-log") {
        listeners.onServerLog?.(message.line)
      } else if (message.type === "modules") {
        listeners.onModules?.(message.files)
      } else if (message.type === "loading") {
        loadingFile = message.file
        loadingInit = "init" in message ? message.init : undefined
      } else if (message.type === "loaded") {
        // fuzz says `loaded` before each call (src/tasks/fuzz-task.ts), with the call's arguments:
        // the listener keeps them, and the bound below is each call's, not the whole run's.
        listeners.onLoaded?.(message.reached)
        if (phase === "load") {
          phase = "run"
          reached = message.reached
          reachedAt = performance.now()
        } else if (message.reached !== undefined) reached = message.reached
        // The engine fires the tool's abort signal at timeoutMs itself; this is the bound for a tool
        // that keeps the engine busy, or replaced its timers: kept here, on this process's clock
        // (the channel carries only what the engine says; nothing a tool writes is believed).
        arm(timeouts.runTimeoutMs + timeouts.graceMs)
      } else if (message.type === "done") {
        let payload: unknown
        try {
          payload = JSON.parse(message.payload)
        } catch (error) {
          return finish({
            kind: "failed",
            error: { code: "INTERNAL", message: `the engine's answer is not JSON: ${error}` },
            phase,
            reached,
          })
        }
        finish({ kind: "done", payload }, timedOut(payload) ? timeouts.graceMs : 0, message.unflushed === true)
      } else if (message.type === "failed") {
        finish({ kind: "failed", error: message.error, phase, reached }, 0, message.unflushed === true)
      }
    })
    void connection.exited.then((ended) =>
      ended.channel
        ? finish({ kind: "failed", error: ended.channel, phase, reached })
        : finish({
            kind: "exited",
            phase,
            reached,
            exitCode: ended.exitCode,
            crash: ended.crash,
            started: ended.started,
            ...(ended.signal === undefined ? {} : { signal: ended.signal }),
          }),
    )
  })
}

// --- internal ---

type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never

type Reported = "console" | "durationMs" | "engine" | "engineSource" | "loadingFile" | "loadingInit"

/** A run that the engine ended itself at the timeout: the tool may still be cleaning up. */
function timedOut(payload: unknown): boolean {
  const result = (payload as { result?: { error?: { code?: unknown } } } | null)?.result
  return result?.error?.code === "TOOL_TIMEOUT"
}
