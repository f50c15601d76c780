// Runs a task (load the tools, then list, describe, diagnose or run them) in a worker thread, so
// that user code cannot break the CLI: process.exit only ends the worker, a busy loop is stopped
// with terminate(), prints are captured (first 64 KiB per stream, the rest counted), and a tool
// that never settles is aborted, then killed. docs/cli.md explains why a worker and not a child
// process: the same guarantees for what tools do in practice, at a fraction of the start-up cost.
import { Worker } from "node:worker_threads"
import type { CapturedConsole } from "./_console-capture.ts"
import { createCaptureBuffer, readCapture } from "./_console-capture.ts"
import type { Reached, Task, TaskCommand, WorkerData, WorkerMessage } from "./worker-protocol.ts"

export type IsolatedOutcome = { console: CapturedConsole; durationMs: number } & (
  | { kind: "done"; payload: unknown }
  | { kind: "failed"; error: { code: string; message: string } }
  /** Nothing came back in time: in `load` while importing the tool files, in `run` while the tool ran. */
  | { kind: "timeout"; phase: Phase; reached: Reached | undefined }
  /** The worker ended before answering: process.exit (with its code), or a crash (with its message). */
  | { kind: "exited"; phase: Phase; reached: Reached | undefined; exitCode: number; crash: string | undefined }
)

export type Phase = "load" | "run"

export type IsolateOptions = {
  /** How long loading the tool files may take (from when the task is given). */
  loadTimeoutMs: number
  /** Then how long the tool may run. */
  runTimeoutMs: number
  /**
   * After the timeout: how long the tool gets to react to its abort signal (fired inside the
   * worker at the timeout) before the worker is terminated.
   */
  graceMs: number
}

/** A worker started ahead of its task, so its start-up overlaps the CLI's own argument handling. */
export type StartedWorker = { worker: Worker; capture: SharedArrayBuffer; command: TaskCommand }

/**
 * Starts the worker for a command (workers/<command>.js): it loads what the command needs, then
 * waits for the task. It does not keep the process alive until a task is given to it.
 */
export function startWorker(command: TaskCommand): StartedWorker {
  const capture = createCaptureBuffer()
  const workerData: WorkerData = { command, capture }
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
  return { worker, capture, command }
}

/** Gives the task to a started worker (or a new one) and waits for the outcome, within the timeouts. */
export function runIsolated(
  task: Task,
  options: IsolateOptions,
  started: StartedWorker = startWorker(task.command),
): Promise<IsolatedOutcome> {
  const startedAt = performance.now()
  const { worker, capture } = started
  if (started.command !== task.command)
    throw new Error(`the worker was started for ${started.command}, not ${task.command}`)
  worker.ref()
  worker.postMessage(task)

  return new Promise((resolve) => {
    let phase: Phase = "load"
    let reached: Reached | undefined
    let reachedAt: number | undefined
    let settled = false
    let crash: string | undefined
    let timer: NodeJS.Timeout | undefined

    const finish = (outcome: DistributiveOmit<IsolatedOutcome, "console" | "durationMs">, waitMs = 0) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      // From when the tool was reached, else from when the task was given.
      const durationMs = Math.round(performance.now() - (reachedAt ?? startedAt))
      const stop = () => {
        resolve({ ...outcome, console: readCapture(capture), durationMs })
        // The report does not wait for the thread to wind down; the process exits once it has.
        void worker.terminate()
      }
      if (waitMs === 0) return stop()
      // Give the tool time to clean up after its abort signal, unless the worker ends sooner.
      const graceTimer = setTimeout(stop, waitMs)
      worker.once("exit", () => {
        clearTimeout(graceTimer)
        resolve({ ...outcome, console: readCapture(capture), durationMs })
      })
    }
    const arm = (milliseconds: number) => {
      clearTimeout(timer)
      timer = setTimeout(() => finish({ kind: "timeout", phase, reached }), milliseconds)
    }

    arm(options.loadTimeoutMs)
    worker.on("message", (message: WorkerMessage) => {
      if (message.type === "loaded") {
        phase = "run"
        reached = message.reached
        reachedAt = performance.now()
        // The worker fires the tool's abort signal at timeoutMs itself; this is the backstop for a
        // tool that keeps the worker's thread busy and never lets the abort run.
        arm(options.runTimeoutMs + options.graceMs)
      } else if (message.type === "done") {
        const payload = JSON.parse(message.payload) as unknown
        finish({ kind: "done", payload }, timedOut(payload) ? options.graceMs : 0)
      } else {
        finish({ kind: "failed", error: message.error })
      }
    })
    worker.on("error", (error) => {
      crash = error instanceof Error ? error.message : String(error)
    })
    worker.on("exit", (exitCode) => finish({ kind: "exited", phase, reached, exitCode, crash }))
  })
}

// --- internal ---

type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never

/** A run that the worker ended itself at the timeout: the tool may still be cleaning up. */
function timedOut(payload: unknown): boolean {
  const result = (payload as { result?: { error?: { code?: unknown } } } | null)?.result
  return result?.error?.code === "TOOL_TIMEOUT"
}
