// The one Node-side client of an engine's process, whichever runtime it is: it starts the process,
// keeps what it says (which runtime it is, an error that escaped a tool, how it ended), reads its
// console when asked to, and ends it with everything it started. The CLI gives it one task
// (engine-task.ts); the library keeps it for a project's calls (remote-project.ts).
import type { ChildProcess } from "node:child_process"
import type { EngineInfo, EngineSelection } from "./choose-engine.ts"
import { engineHere } from "./here.ts"
import type { FromEngine, ToEngine } from "./protocol.ts"
import type { SpawnEngineOptions } from "./spawn-engine.ts"
import { endEngine, exitStatusOfSignal, spawnEngine } from "./spawn-engine.ts"
import type { CapturedConsole, StreamCapture } from "./stream-capture.ts"
import { captureStreams, EMPTY_CONSOLE } from "./stream-capture.ts"

/** How an engine's process ended. */
export type EngineExit = {
  /** The process's exit code; for a signal, 128 + its number (exitStatusOfSignal). */
  exitCode: number
  /** The signal that ended it (SIGKILL from the kernel when memory runs out, or from us). */
  signal?: NodeJS.Signals
  /** Why it ended (out of memory, replaced), or why the process could not be started. */
  crash?: string
  /** False when it ended before it was up (a binary that is not a Bun): no user code ran. */
  started: boolean
}

/** After the engine died of a signal: how long its stderr may take to say why. */
const LAST_WORDS_MS = 250

/** Once the engine's group is ended, how long its output pipes may take to drain. */
const DRAIN_MS = 1_000

export class EngineConnection {
  readonly selection: EngineSelection
  /** Resolves when the process has ended, or could not be started. */
  readonly exited: Promise<EngineExit>
  readonly #child: ChildProcess
  readonly #capture: StreamCapture | undefined
  #engine: EngineInfo
  #ready = false
  #ended: EngineExit | undefined

  constructor(selection: EngineSelection, options: SpawnEngineOptions) {
    this.selection = selection
    this.#engine =
      selection.name === "bun" ? { name: "bun", version: "unknown", binary: selection.location.binary } : engineHere()
    const child = spawnEngine(selection, options)
    this.#child = child
    this.#capture = options.console === "pipe" ? captureStreams(child.stdout, child.stderr) : undefined
    child.on("message", (message: FromEngine) => {
      if (message.type === "ready") {
        this.#engine = message.engine
        this.#ready = true
      }
    })
    this.exited = new Promise<EngineExit>((resolve) => {
      const end = (ended: EngineExit) => {
        this.#ended ??= ended
        resolve(this.#ended)
      }
      child.once("exit", async (code: number | null, signal: NodeJS.Signals | null) => {
        // Its last words may still be in the pipe (a child the tool left may hold it open: bounded).
        if (this.#capture && signal !== null) await Promise.race([this.#capture.ended, delay(LAST_WORDS_MS)])
        end({
          exitCode: code ?? (signal === null ? 1 : exitStatusOfSignal(signal)),
          ...(signal === null ? {} : { signal }),
          ...(this.#outOfMemory() ? { crash: "JavaScript heap out of memory" } : {}),
          started: this.#ready,
        })
      })
      // A binary that cannot be started at all gets no "exit" event.
      child.once("error", (error: Error) => {
        if (child.pid === undefined)
          end({ exitCode: 127, crash: `could not start ${this.#engine.binary}: ${error.message}`, started: false })
      })
    })
  }

  /** Node ends a process whose heap is full with a last line on stderr, and an abort. */
  #outOfMemory(): boolean {
    return /JavaScript heap out of memory/.test(this.#capture?.stderrTail() ?? "")
  }

  /** Whether messages can still be sent. */
  get connected(): boolean {
    return this.#child.connected
  }

  /** Whether the engine said it is up: user code may have run. */
  get started(): boolean {
    return this.#ready
  }

  /** Which runtime this is, as it said at start-up (the binary until then). */
  engine(): EngineInfo {
    return this.#engine
  }

  /** What the tools printed so far (with `console: "pipe"`). */
  console(): CapturedConsole {
    return this.#capture?.read() ?? EMPTY_CONSOLE
  }

  send(message: ToEngine): boolean {
    if (!this.#child.connected) return false
    return this.#child.send(message)
  }

  /** Every message the engine sends from now on; returns the function that stops listening. */
  onMessage(listener: (message: FromEngine) => void): () => void {
    this.#child.on("message", listener)
    return () => void this.#child.off("message", listener)
  }

  /** Whether this process waits for the engine (and its messages) before it can exit. */
  keepAlive(keep: boolean): void {
    // Node's IPC channel keeps this process alive as the child does: both follow ref() and unref().
    // (Bun, running the CLI, has no ref() on the channel; its child's own does both.)
    const channel = this.#child.channel as { ref?: () => void; unref?: () => void } | null | undefined
    if (keep) {
      this.#child.ref()
      channel?.ref?.()
    } else {
      this.#child.unref()
      channel?.unref?.()
    }
  }

  /** Ends the engine and everything it started, at once. */
  end(): void {
    endEngine(this.#child)
  }

  /**
   * Ends the engine after giving it up to `waitMs` to end by itself, then reads what it printed to
   * the end (bounded by DRAIN_MS) and closes the channel.
   */
  async stop(waitMs = 0): Promise<void> {
    if (this.#ended === undefined && waitMs > 0) await Promise.race([this.exited, delay(waitMs)])
    this.end()
    if (this.#capture) {
      await Promise.race([this.#capture.ended, delay(DRAIN_MS)])
      this.#capture.close()
    }
    if (this.#child.connected) this.#child.disconnect()
  }
}

// --- internal ---

function delay(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds).unref())
}
