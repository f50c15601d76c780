// Runs a task (load the tools, then list, describe, diagnose or run them) away from the CLI, so
// that user code cannot break it: process.exit only ends the engine's thread or process, a busy
// loop is stopped from outside, prints are captured (first 64 KiB per stream, the rest counted),
// and a tool that never settles is aborted, then killed. Two hosts: the node engine runs the task
// in a worker thread (docs/cli.md explains why a thread: the same guarantees at a fraction of the
// start-up cost); the bun engine runs it in a Bun process of its own, whose process group is ended
// with it, so nothing a tool started outlives the run.
import type { Worker } from "node:worker_threads"
import type { BunSpawn } from "../engine/bun/bun-spawn.ts"
import type { FromEngine } from "../engine/bun/protocol.ts"
import type { EngineProcess } from "../engine/bun/spawn-engine.ts"
import { endEngine, spawnEngine } from "../engine/bun/spawn-engine.ts"
import type { EngineInfo, EngineSelection } from "../engine/choose-engine.ts"
import type { BunLocation } from "../engine/find-bun.ts"
import { engineHere } from "../engine/here.ts"
import type { CapturedConsole } from "./_console-capture.ts"
import { createCaptureBuffer, readCapture } from "./_console-capture.ts"
import type { StreamCapture } from "./_stream-capture.ts"
import { captureStreams } from "./_stream-capture.ts"
import type { Reached, Task, TaskCommand, WorkerData, WorkerMessage } from "./worker-protocol.ts"

export type IsolatedOutcome = {
  console: CapturedConsole
  durationMs: number
  engine: EngineInfo
  /** Where the bun engine's Bun was found. */
  engineSource?: BunLocation["source"]
  /** The tool or plugin file being imported when loading stopped (timeout, exit). */
  loadingFile?: string
} & (
  | { kind: "done"; payload: unknown }
  | { kind: "failed"; error: { code: string; message: string } }
  /** Nothing came back in time: in `load` while importing the tool files, in `run` while the tool ran. */
  | { kind: "timeout"; phase: Phase; reached: Reached | undefined }
  /** The engine ended before answering: process.exit (with its code), or a crash (with its message). */
  | {
      kind: "exited"
      phase: Phase
      reached: Reached | undefined
      exitCode: number
      /** The signal that killed a bun engine (SIGKILL from the kernel when memory runs out). */
      signal?: string
      crash: string | undefined
      /** False when the engine ended before it was up (a binary that is not a Bun): no user code ran. */
      started: boolean
    }
)

export type Phase = "load" | "run"

export type IsolateOptions = {
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
export type StartedWorker = {
  command: TaskCommand
  host: Host
  /** Where the bun engine's Bun was found; undefined for the node engine's thread. */
  source: BunLocation["source"] | undefined
  /** The bun engine's Bun; undefined for the node engine's thread. */
  location?: BunLocation
}

/**
 * Starts the engine for a command: a worker thread (workers/<command>.js) for the node engine, a
 * Bun process for the bun engine. It loads what the command needs, then waits for the task; it
 * does not keep the process alive until a task is given to it.
 */
export function startWorker(
  command: TaskCommand,
  selection: EngineSelection = { name: "node" },
  /** The bun engine's process, when Bun has started it already (cli/bun-early.ts). */
  started?: BunSpawn,
): StartedWorker {
  if (selection.name === "bun") {
    const child = spawnEngine(selection.location, { cwd: process.cwd(), console: "pipe" }, started)
    const capture = captureStreams(child.stdout, child.stderr)
    child.unref()
    const { location } = selection
    return { command, host: processHost(child, capture, location), source: location.source, location }
  }
  const capture = createCaptureBuffer()
  const workerData: WorkerData = { command, capture }
  // Taken when needed: the bun engine's CLI, in Bun, has no use for threads (~6 ms to import there).
  const { Worker } = process.getBuiltinModule("node:worker_threads")
  const worker = new Worker(new URL(`./workers/${command}.js`, import.meta.url), {
    workerData,
    // Anything that still reaches the worker's own stdio is drained here, never printed.
    stdout: true,
    stderr: true,
    stdin: false,
  })
  worker.stdout.resume()
  worker.stderr.resume()
  worker.unref()
  return { command, host: threadHost(worker, capture), source: undefined }
}

/** Gives the task to a started engine (or a new node one) and waits for the outcome, within the timeouts. */
export function runIsolated(
  task: Task,
  options: IsolateOptions,
  started: StartedWorker = startWorker(task.command),
): Promise<IsolatedOutcome> {
  const startedAt = performance.now()
  if (started.command !== task.command)
    throw new Error(`the engine was started for ${started.command}, not ${task.command}`)
  const { host } = started
  host.give(task)

  return new Promise((resolve) => {
    let phase: Phase = "load"
    let reached: Reached | undefined
    let reachedAt: number | undefined
    let loadingFile: string | undefined
    let settled = false
    let crash: string | undefined
    let timer: NodeJS.Timeout | undefined

    const finish = (outcome: DistributiveOmit<IsolatedOutcome, Reported>, waitMs = 0) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      // From when the tool was reached, else from when the task was given.
      const durationMs = Math.round(performance.now() - (reachedAt ?? startedAt))
      void host.stop(waitMs).then(() => {
        const reported = { console: host.console(), durationMs, engine: host.engine() }
        resolve({
          ...outcome,
          ...reported,
          ...(started.source === undefined ? {} : { engineSource: started.source }),
          ...(loadingFile === undefined || phase !== "load" ? {} : { loadingFile }),
        })
      })
    }
    const arm = (milliseconds: number) => {
      clearTimeout(timer)
      timer = setTimeout(() => finish({ kind: "timeout", phase, reached }), milliseconds)
    }

    arm(options.loadTimeoutMs)
    host.onMessage((message) => {
      if (message.type === "loading") {
        loadingFile = message.file
      } else if (message.type === "loaded") {
        phase = "run"
        reached = message.reached
        reachedAt = performance.now()
        // The engine fires the tool's abort signal at timeoutMs itself; this is the backstop for a
        // tool that keeps the engine's thread busy and never lets the abort run.
        arm(options.runTimeoutMs + options.graceMs)
      } else if (message.type === "done") {
        const payload = JSON.parse(message.payload) as unknown
        finish({ kind: "done", payload }, timedOut(payload) ? options.graceMs : 0)
      } else if (message.type === "failed") {
        finish({ kind: "failed", error: message.error })
      } else if (message.type === "crash") {
        crash = message.message
      }
    })
    host.onCrash((message) => {
      crash = message
    })
    host.onExit((exitCode, signal) =>
      finish({
        kind: "exited",
        phase,
        reached,
        exitCode,
        crash,
        started: host.started(),
        ...(signal === undefined ? {} : { signal }),
      }),
    )
  })
}

// --- internal ---

type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never

type Reported = "console" | "durationMs" | "engine" | "engineSource" | "loadingFile"

type HostMessage = WorkerMessage | { type: "crash"; message: string } | { type: "ready"; engine: EngineInfo }

/** What runIsolated needs of an engine, whichever it is. Made when the engine starts, so nothing it says is missed. */
type Host = {
  give: (task: Task) => void
  onMessage: (listener: (message: HostMessage) => void) => void
  onCrash: (listener: (message: string) => void) => void
  onExit: (listener: (exitCode: number, signal?: string) => void) => void
  /** Ends the engine, after giving it up to `waitMs` to end by itself. */
  stop: (waitMs: number) => Promise<void>
  console: () => CapturedConsole
  engine: () => EngineInfo
  /** Whether the engine came up (a thread always does). */
  started: () => boolean
}

function threadHost(worker: Worker, capture: SharedArrayBuffer): Host {
  let exited = false
  worker.once("exit", () => {
    exited = true
  })
  return {
    give: (task) => {
      worker.ref()
      worker.postMessage(task)
    },
    onMessage: (listener) => worker.on("message", listener),
    onCrash: (listener) =>
      // As the bun engine reports it: the class, then the message.
      worker.on("error", (error) =>
        listener(error instanceof Error ? `${error.name}: ${error.message}` : String(error)),
      ),
    onExit: (listener) => worker.on("exit", listener),
    stop: (waitMs) =>
      new Promise((resolve) => {
        // The report does not wait for the thread to wind down; the process exits once it has.
        if (waitMs === 0 || exited) {
          resolve()
          void worker.terminate()
          return
        }
        // Give the tool time to clean up after its abort signal, unless the worker ends sooner.
        const graceTimer = setTimeout(() => {
          resolve()
          void worker.terminate()
        }, waitMs)
        worker.once("exit", () => {
          clearTimeout(graceTimer)
          resolve()
        })
      }),
    console: () => readCapture(capture),
    engine: engineHere,
    started: () => true,
  }
}

/** Once the engine's group is ended, how long its output pipes may take to drain. */
const DRAIN_MS = 1_000

function processHost(child: EngineProcess, capture: StreamCapture, location: BunLocation): Host {
  let engine: EngineInfo = { name: "bun", version: "unknown", binary: location.binary }
  let ready = false
  child.on("message", (message: FromEngine) => {
    if (message.type !== "ready") return
    engine = message.engine
    ready = true
  })
  // The engine may end (a binary that is not a Bun) before the CLI gives it the task: its exit
  // and its spawn error are kept for listeners that come later.
  let exitCode: number | undefined
  let exitSignal: string | undefined
  let spawnError: string | undefined
  const exit = new Promise<void>((resolve) => {
    child.once("exit", (code: number | null, signal: NodeJS.Signals | null) => {
      exitCode ??= code ?? exitCodeOfSignal(signal)
      if (signal !== null) exitSignal = signal
      resolve()
    })
    // A binary that cannot be started at all gets no "exit" event.
    child.once("error", (error: Error) => {
      spawnError = `the bun engine could not start: ${error.message}`
      if (child.pid === undefined) {
        exitCode ??= 127
        resolve()
      }
    })
  })
  return {
    give: (task) => {
      if (!child.connected) return
      child.ref()
      child.send({ type: "task", cwd: process.cwd(), task })
    },
    // The task's messages: FromEngine's task half (the library's replies never come here).
    onMessage: (listener) => child.on("message", listener as (message: FromEngine) => void),
    onCrash: (listener) => void exit.then(() => spawnError !== undefined && listener(spawnError)),
    onExit: (listener) => void exit.then(() => listener(exitCode!, exitSignal)),
    stop: async (waitMs) => {
      // The engine flushes its output before it answers. A timed-out tool gets its grace period;
      // then the whole group goes, and what it printed is read to the end.
      if (exitCode === undefined && waitMs > 0) await Promise.race([exit, delay(waitMs)])
      endEngine(child)
      await Promise.race([capture.ended, delay(DRAIN_MS)])
      capture.close()
      child.disconnect()
    },
    console: () => capture.read(),
    engine: () => engine,
    started: () => ready,
  }
}

function exitCodeOfSignal(signal: NodeJS.Signals | null): number {
  return signal === "SIGKILL" ? 137 : signal === "SIGTERM" ? 143 : 1
}

function delay(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds).unref())
}

/** A run that the engine ended itself at the timeout: the tool may still be cleaning up. */
function timedOut(payload: unknown): boolean {
  const result = (payload as { result?: { error?: { code?: unknown } } } | null)?.result
  return result?.error?.code === "TOOL_TIMEOUT"
}
