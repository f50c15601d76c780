// Starting the bun engine's process, and ending it with everything it started. The engine leads a
// process group of its own, so the children a tool spawns (and does not wait for) end with it:
// opencode's tools cannot outlive opencode either. From Node the process is node:child_process's;
// from Bun (the CLI bin.js's launcher starts in Bun) it is Bun.spawn's, which starts in ~1 ms
// where node:child_process takes ~20 ms to load and spawn there, behind the same small surface.
import type { ChildProcess } from "node:child_process"
import { EventEmitter } from "node:events"
import type { Readable } from "node:stream"
import { BUN_ENGINE_ENTRY } from "../../discovery/runtime-files.ts"
import type { BunLocation } from "../find-bun.ts"
import { endProcessTree } from "../process-tree.ts"
import type { BunSpawn, BunSubprocess } from "./bun-spawn.ts"
import { spawnInBun } from "./bun-spawn.ts"
import type { FromEngine, ToEngine } from "./protocol.ts"

/** What the CLI and the library use of the engine's process, whichever runtime started it. */
export type EngineProcess = {
  readonly pid: number | undefined
  readonly connected: boolean
  readonly exitCode: number | null
  /** The engine's own stdout and stderr, with `console: "pipe"`. */
  readonly stdout: Readable | ReadableStream<Uint8Array> | null
  readonly stderr: Readable | ReadableStream<Uint8Array> | null
  send(message: ToEngine): boolean
  /** Whether this process waits for the engine (and its messages) before it can exit. */
  ref(): void
  unref(): void
  kill(signal: NodeJS.Signals): void
  disconnect(): void
  on(event: "message", listener: (message: FromEngine) => void): unknown
  on(event: "exit", listener: (code: number | null, signal: NodeJS.Signals | null) => void): unknown
  on(event: "error", listener: (error: Error) => void): unknown
  once(event: "exit", listener: (code: number | null, signal: NodeJS.Signals | null) => void): unknown
  once(event: "error", listener: (error: Error) => void): unknown
}

export type SpawnEngineOptions = {
  cwd: string
  /** "pipe" hands the tools' stdout and stderr to the caller (the CLI captures them); "inherit" lets them through (the library, as a test runner shows them). */
  console: "pipe" | "inherit"
}

const live = new Set<EngineProcess>()
let exitHookInstalled = false

/**
 * Starts the engine in `cwd`, a process group of its own; or, with `started`, takes over one that
 * Bun started for it already (cli/bun-early.ts).
 */
export function spawnEngine(location: BunLocation, options: SpawnEngineOptions, started?: BunSpawn): EngineProcess {
  // BUN_BE_BUN makes the opencode executable act as the Bun it embeds; a plain bun ignores it.
  const env = { ...process.env, BUN_BE_BUN: "1" }
  const child =
    typeof process.versions.bun === "string"
      ? fromBun(location, options, env, started)
      : fromNode(location, options, env)
  live.add(child)
  child.once("exit", () => live.delete(child))
  // A test runner's worker, or the CLI, that exits leaves no engine behind.
  if (!exitHookInstalled) {
    exitHookInstalled = true
    process.once("exit", () => {
      for (const engine of live) endEngine(engine)
    })
  }
  return child
}

/** Kills the engine and every process in its group, at once. */
export function endEngine(child: EngineProcess): void {
  if (child.pid === undefined) return
  try {
    endProcessTree(child.pid)
  } catch {
    // The group is gone already.
  }
  try {
    child.kill("SIGKILL")
  } catch {}
}

// --- internal ---

function fromNode(location: BunLocation, options: SpawnEngineOptions, env: NodeJS.ProcessEnv): EngineProcess {
  const { spawn } = process.getBuiltinModule("node:child_process")
  const child: ChildProcess = spawn(location.binary, [BUN_ENGINE_ENTRY], {
    cwd: options.cwd,
    env,
    stdio: ["ignore", options.console, options.console, "ipc"],
    serialization: "json",
    detached: process.platform !== "win32",
  })
  const engine = {
    get pid() {
      return child.pid
    },
    get connected() {
      return child.connected
    },
    get exitCode() {
      return child.exitCode
    },
    stdout: child.stdout,
    stderr: child.stderr,
    send: (message: ToEngine) => child.send(message),
    // The IPC channel keeps this process alive as the child does: both follow ref() and unref().
    ref: () => {
      child.ref()
      child.channel?.ref()
    },
    unref: () => {
      child.unref()
      child.channel?.unref()
    },
    kill: (signal: NodeJS.Signals) => void child.kill(signal),
    disconnect: () => {
      if (child.connected) child.disconnect()
    },
    on: (event: string, listener: (...args: any[]) => void) => child.on(event, listener),
    once: (event: string, listener: (...args: any[]) => void) => child.once(event, listener),
  }
  return engine as EngineProcess
}

/** Bun.spawn behind the EngineProcess surface: IPC messages, exit and error as events. */
class BunEngineProcess extends EventEmitter {
  pid: number | undefined
  connected = false
  exitCode: number | null = null
  stdout: ReadableStream<Uint8Array> | null = null
  stderr: ReadableStream<Uint8Array> | null = null
  #subprocess: BunSubprocess | undefined

  constructor(spawned: BunSpawn, console: SpawnEngineOptions["console"]) {
    super()
    const { subprocess, error } = spawned
    if (!subprocess) {
      // node:child_process reports a binary it cannot start as an "error" event: so does this.
      queueMicrotask(() => this.emit("error", error ?? new Error("the engine could not be started")))
      return
    }
    this.#subprocess = subprocess
    this.pid = subprocess.pid
    this.connected = true
    if (console === "pipe") {
      this.stdout = subprocess.stdout as ReadableStream<Uint8Array>
      this.stderr = subprocess.stderr as ReadableStream<Uint8Array>
    }
    // After the constructor: what the engine said before anyone listened comes as events, in order.
    queueMicrotask(() =>
      spawned.listen({
        message: (message) => this.emit("message", message),
        exit: (exitCode, signal) => {
          this.connected = false
          this.exitCode = exitCode
          this.emit("exit", exitCode, signal)
        },
      }),
    )
  }

  send(message: ToEngine): boolean {
    if (!this.connected || !this.#subprocess) return false
    this.#subprocess.send(message)
    return true
  }

  ref(): void {
    this.#subprocess?.ref()
  }

  unref(): void {
    this.#subprocess?.unref()
  }

  kill(signal: NodeJS.Signals): void {
    this.#subprocess?.kill(signal)
  }

  disconnect(): void {
    if (!this.connected) return
    this.connected = false
    this.#subprocess?.disconnect()
  }
}

function fromBun(
  location: BunLocation,
  options: SpawnEngineOptions,
  env: NodeJS.ProcessEnv,
  started: BunSpawn | undefined,
): EngineProcess {
  const spawned =
    started ?? spawnInBun(location.binary, BUN_ENGINE_ENTRY, { cwd: options.cwd, env, console: options.console })
  return new BunEngineProcess(spawned, options.console) as EngineProcess
}
