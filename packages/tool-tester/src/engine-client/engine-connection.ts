// The one Node-side client of an engine's process, whichever runtime it is: it starts the process
// (engine-process.ts, unless the caller started it already), keeps what it says (which runtime it
// is, an error that escaped a tool, how it ended), reads its console when asked to, and ends it
// with everything it started. The CLI gives it one task (engine-task.ts); the library keeps it for
// a project's calls (remote-project.ts).
// Its channel (protocol.ts): it writes on the engine's stdin, the secret first, and believes only
// the lines on the engine's descriptor 3 that read-engine-frame.ts accepts. Anything else there, a
// `refused` from the engine, or the descriptor closing while the engine runs, ends the engine with
// CHANNEL_FORGED or CHANNEL_CLOSED (`EngineExit.channel`); so does its exit with
// CHANNEL_CLOSED_EXIT_CODE after it made the file named in the hello (a tool's own process.exit(87)
// makes none). A `stdin-closed` (a tool closed the engine's stdin) fails nothing: nothing more is sent.
import type { ChildProcess } from "node:child_process"
import { PassThrough, type Readable, type Writable } from "node:stream"
import { stringifyKeepingNegativeZero } from "../_negative-zero-json.ts"
import type { EngineInfo } from "../runtime/here.ts"
import { engineHere } from "../runtime/here.ts"
import type { CapturedConsole, StreamCapture } from "../runtime/stream-capture.ts"
import { captureStreams, EMPTY_CONSOLE } from "../runtime/stream-capture.ts"
import { CHANNEL_CLOSED_EXIT_CODE, CHANNEL_CLOSED_MESSAGE } from "./channel-closed.ts"
import type { EngineSelection } from "./choose-engine.ts"
import type { EngineProcess } from "./engine-process.ts"
import { endEngineProcess, startEngineProcess } from "./engine-process.ts"
import { LineCutter, MAX_FRAME_BYTES } from "./frames.ts"
import { pipeLabelled } from "./labelled-console.ts"
import type { FromEngine, ToEngine } from "./protocol.ts"
import { readEngineFrame } from "./read-engine-frame.ts"
import type { ConsoleRelay } from "./relayed-console.ts"
import { pipeToConsole } from "./relayed-console.ts"
import type { SpawnEngineOptions } from "./spawn-engine.ts"
import { exitStatusOfSignal } from "./spawn-engine.ts"

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
  /** It was ended because its channel was written by something else, or closed while it ran. */
  channel?: ChannelFailure
  /** It was ended for another call (one past its timeoutMs, one that tampered): no fault of the calls it ran beside. */
  interrupted?: boolean
}

/** Why an engine's channel could not be believed any more. */
export type ChannelFailure = { code: "CHANNEL_FORGED" | "CHANNEL_CLOSED"; message: string }

/** After the engine died of a signal: how long its stderr may take to say why. */
const LAST_WORDS_MS = 250

/** Once the engine's group is ended, how long its output pipes may take to drain. */
const DRAIN_MS = 1_000

/**
 * An engine that answered before what the tools printed was all in its pipes (its bound, on a
 * loaded machine or for a huge print) is left to hand the rest over while it comes: until a second
 * passes without a byte, for 30 s at most.
 */
const UNFLUSHED_IDLE_MS = 1_000
const UNFLUSHED_CAP_MS = 30_000

/**
 * After the engine's descriptor 3 closed: how long its process may take to be seen ending (both
 * happen together when it exits). Still running after that, a tool closed the descriptor.
 */
const CLOSED_WAIT_MS = 1_000

export class EngineConnection {
  readonly selection: EngineSelection
  /** Resolves when the process has ended, or could not be started. */
  readonly exited: Promise<EngineExit>
  readonly #child: ChildProcess
  readonly #process: EngineProcess
  readonly #capture: StreamCapture | undefined
  /** With `console: "labelled"`, what each line the tools print starts with (labelConsole). */
  #consoleLabel: () => string = () => "[tools]"
  readonly #labelled: boolean
  /** With `console: "console"`, the lines on their way to this process's console (relayed-console.ts). */
  readonly #relay: ConsoleRelay | undefined
  readonly #input: Writable
  readonly #output: Readable
  /** Resolves when the engine's descriptor 3 has closed (read to its end). */
  readonly #outputEnded: Promise<void>
  readonly #listeners = new Set<(message: FromEngine) => void>()
  #engine: EngineInfo
  #ready = false
  #exitSeen = false
  /** The engine said it reads its stdin no more (`stdin-closed`). */
  #deaf = false
  #failure: ChannelFailure | undefined
  #ended: EngineExit | undefined

  /**
   * Talks to `started`, an engine's process started with this selection and options (the CLI starts
   * it before this module loads: engine-process.ts); without it, starts one.
   */
  constructor(
    selection: EngineSelection,
    options: SpawnEngineOptions,
    started: EngineProcess = startEngineProcess(selection, options),
  ) {
    this.selection = selection
    this.#engine =
      selection.name === "bun" ? { name: "bun", version: "unknown", binary: selection.location.binary } : engineHere()
    const child = started.child
    this.#child = child
    this.#process = started
    started.release()
    this.#capture = options.console === "pipe" ? captureStreams(child.stdout, child.stderr) : undefined
    this.#labelled = options.console === "labelled"
    if (this.#labelled) this.#writeLabelled(child)
    this.#relay = options.console === "console" ? pipeToConsole(child) : undefined
    // (A binary that could not be started may have no pipes: empty streams stand in.)
    this.#input = child.stdin ?? new PassThrough()
    this.#output = (child.stdio[3] as Readable | null | undefined) ?? new PassThrough()
    // Writing to an engine that has ended fails with EPIPE: its exit says what happened.
    this.#input.on("error", () => {})
    this.#outputEnded = this.#read(Buffer.from(started.secret, "utf8"))
    this.exited = new Promise<EngineExit>((resolve) => {
      const end = (ended: EngineExit) => {
        this.#ended ??= ended
        resolve(this.#ended)
      }
      const exited = async (code: number | null, signal: NodeJS.Signals | null) => {
        this.#exitSeen = true
        // The engine could not write its answer: the descriptor was closed, seen from its side. The
        // same exit code without the engine's file is a tool's process.exit(87).
        if (
          code === CHANNEL_CLOSED_EXIT_CODE &&
          started.closedFileMade &&
          !started.ending &&
          this.#failure === undefined
        )
          this.#failure = { code: "CHANNEL_CLOSED", message: CHANNEL_CLOSED_MESSAGE }
        // What it wrote on its channel before it ended is read first, and its last words may still
        // be in the console pipes (a child the tool left may hold them open: bounded).
        await Promise.race([this.#outputEnded, delay(LAST_WORDS_MS)])
        if (this.#capture && signal !== null) await Promise.race([this.#capture.ended, delay(LAST_WORDS_MS)])
        end({
          exitCode: code ?? (signal === null ? 1 : exitStatusOfSignal(signal)),
          ...(signal === null ? {} : { signal }),
          ...this.#outOfMemory(code, signal),
          started: this.#ready,
          ...(this.#failure === undefined ? {} : { channel: this.#failure }),
        })
      }
      // A binary that cannot be started at all gets no "exit" event.
      const failed = (error: Error) => {
        if (child.pid === undefined)
          end({ exitCode: 127, crash: `could not start ${this.#engine.binary}: ${error.message}`, started: false })
      }
      // What the process did before this connection listened, engine-process.ts kept.
      if (started.exit === undefined) child.once("exit", exited)
      else void exited(started.exit.code, started.exit.signal)
      if (started.error === undefined) child.once("error", failed)
      else failed(started.error)
    })
  }

  /** What the tools print, on this process's stderr, each line after its label (labelled-console.ts). */
  #writeLabelled(child: ChildProcess): void {
    pipeLabelled(child, () => this.#consoleLabel(), process.stderr)
  }

  /** Reads the engine's descriptor 3 to its end; resolves then. */
  #read(secret: Buffer): Promise<void> {
    const cutter = new LineCutter()
    return new Promise<void>((resolve) => {
      const closed = () => {
        resolve()
        if (this.#exitSeen || this.#process.ending || this.#failure) return
        // Closed with the process still running: a tool closed it, unless the process is ending now.
        const timer = setTimeout(() => {
          if (!this.#exitSeen && !this.#process.ending) this.#fail("CHANNEL_CLOSED", CHANNEL_CLOSED_MESSAGE)
        }, CLOSED_WAIT_MS)
        timer.unref()
      }
      this.#output.once("end", closed)
      this.#output.once("close", closed)
      // Held before this read it (engine-process.ts), an engine that exited at once has ended it already.
      if (this.#output.readableEnded || this.#output.destroyed) closed()
      this.#output.on("error", () => {})
      this.#output.on("data", (chunk: Buffer) => {
        if (this.#failure) return
        const cut = cutter.push(chunk)
        for (const line of cut.lines) {
          if (this.#failure) return
          const read = readEngineFrame(line, secret)
          if ("problem" in read) {
            this.#fail("CHANNEL_FORGED", forgedMessage(read.problem))
            return
          }
          this.#deliver(read.message)
        }
        if (cut.oversized !== undefined)
          this.#fail("CHANNEL_FORGED", forgedMessage(`a line of more than ${MAX_FRAME_BYTES} bytes`))
      })
    })
  }

  #deliver(message: FromEngine): void {
    if (message.type === "refused") {
      this.#fail("CHANNEL_FORGED", message.reason)
      return
    }
    // It reads nothing more: it answers what it has, and gets nothing new (remote-project.ts
    // gives later calls a new engine).
    if (message.type === "stdin-closed") this.#deaf = true
    if (message.type === "ready") {
      this.#engine = message.engine
      this.#ready = true
    }
    for (const listener of [...this.#listeners]) listener(message)
  }

  /** A message the engine could only have sent if its stdin was written by someone else: it is ended with CHANNEL_FORGED. */
  distrust(message: string): void {
    this.#fail("CHANNEL_FORGED", message)
  }

  /** The channel cannot be believed any more: nothing more is delivered, and the engine is ended. */
  #fail(code: ChannelFailure["code"], message: string): void {
    if (this.#failure) return
    this.#failure = { code, message }
    this.end()
  }

  /**
   * Out of memory, said only when the runtime ended the process as it does then: Node prints "...
   * JavaScript heap out of memory" and aborts (SIGABRT; exit code 134 on Windows, which has no
   * signals); Bun's JavaScriptCore prints "MemoryExhaustion: Crash intentionally because memory is
   * exhausted" and aborts. A tool that prints those words and exits is a process.exit, whatever its
   * code (one that prints them and then aborts itself cannot be told apart: it crashed the engine
   * either way). Bun's other ends when memory runs out (a RangeError the tool can catch, a crash by
   * SIGILL, the system's SIGKILL) are reported as what they are.
   */
  #outOfMemory(code: number | null, signal: NodeJS.Signals | null): { crash?: string } {
    const aborted = signal === "SIGABRT" || (process.platform === "win32" && code === 134)
    if (!aborted) return {}
    const tail = this.#capture?.stderrTail() ?? ""
    if (/JavaScript heap out of memory/.test(tail)) return { crash: "JavaScript heap out of memory" }
    if (/MemoryExhaustion: Crash intentionally because memory is exhausted/.test(tail))
      return { crash: "JavaScript heap out of memory, Bun's MemoryExhaustion" }
    return {}
  }

  /** Whether messages can still be sent. */
  get connected(): boolean {
    return !this.#exitSeen && this.#failure === undefined && !this.#deaf && this.#input.writable
  }

  /** The engine reads nothing more (a tool closed its stdin): it still answers what it was given. */
  get deaf(): boolean {
    return this.#deaf
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

  /** With `console: "labelled"`: the label each line the tools print starts with, asked as the line starts. */
  labelConsole(label: () => string): void {
    this.#consoleLabel = label
  }

  /**
   * With `console: "console"`: writes the partial line read so far (a call that printed it has
   * returned), so that it is shown with that call.
   */
  flushConsole(): void {
    this.#relay?.flush()
  }

  send(message: ToEngine): boolean {
    if (!this.connected) return false
    // A call's arguments can hold -0, which the tool is to get as it is.
    this.#input.write(`${stringifyKeepingNegativeZero(message)}\n`)
    return true
  }

  /** Every message the engine sends from now on; returns the function that stops listening. */
  onMessage(listener: (message: FromEngine) => void): () => void {
    this.#listeners.add(listener)
    return () => void this.#listeners.delete(listener)
  }

  /** Whether this process waits for the engine (and its messages) before it can exit. */
  keepAlive(keep: boolean): void {
    // The channel's pipes keep this process alive as the child does: all follow ref() and unref().
    // (A labelled or relayed console's pipes are read here too: they follow as well.)
    const labelled = this.#labelled || this.#relay ? [this.#child.stdout, this.#child.stderr] : []
    const pipes = [this.#input, this.#output, ...labelled] as Array<{
      ref?: () => void
      unref?: () => void
    } | null>
    if (keep) {
      this.#child.ref()
      for (const pipe of pipes) pipe?.ref?.()
    } else {
      this.#child.unref()
      for (const pipe of pipes) pipe?.unref?.()
    }
  }

  /** Ends the engine and everything it started, at once. */
  end(): void {
    endEngineProcess(this.#process)
  }

  /**
   * Ends the engine after giving it up to `waitMs` to end by itself, then reads what it printed to
   * the end (bounded by DRAIN_MS) and closes the channel. `unflushed`: the engine said what the
   * tools printed was not all in its pipes yet; it is read while it comes first.
   */
  async stop(waitMs = 0, unflushed = false): Promise<void> {
    if (unflushed && this.#capture && this.#ended === undefined)
      await this.#capture.quiet(UNFLUSHED_IDLE_MS, UNFLUSHED_CAP_MS)
    if (this.#ended === undefined && waitMs > 0) await Promise.race([this.exited, delay(waitMs)])
    this.end()
    if (this.#capture) {
      await Promise.race([this.#capture.ended, delay(DRAIN_MS)])
      this.#capture.close()
    }
    this.#input.destroy()
    this.#output.destroy()
  }
}

// --- internal ---

function forgedMessage(problem: string): string {
  return `something in the engine's process (the tool, or a process it started) wrote on file descriptor 3, the engine's channel: ${problem}; the engine was stopped, since its answer could not be told from a forged one. opencode has no such channel: write output to stdout or stderr`
}

function delay(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds).unref())
}
