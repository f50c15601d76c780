// The library's side of the bun engine: loadTools() starts one engine process per project and
// keeps it for the calls that follow (a test file that runs a tool a hundred times starts Bun
// once). The project it returns is a snapshot; the live tools stay in the engine, and runTool,
// callTool and getToolSchemas send their work there. A tool that ends the engine (process.exit,
// an error escaping into a timer, a busy loop past its timeout) fails its call; the next call
// starts a new engine and loads the project again.
import { realpathSync } from "node:fs"
import { ToolTesterError } from "../../errors.ts"
import type { ListOptions } from "../../list-tools.ts"
import type { ToolProject } from "../../load-tools.ts"
import type { RawToolCall } from "../../pipeline/repair-call.ts"
import type { RunOptions, RunResult } from "../../run-tool.ts"
import type { BunLocation } from "../find-bun.ts"
import type { EngineCall, FromEngine, RemoteLoadOptions, RemoteRunOptions } from "./protocol.ts"
import type { EngineProcess } from "./spawn-engine.ts"
import { endEngine, spawnEngine } from "./spawn-engine.ts"
import { unreachedResult } from "./unreached-result.ts"

/** After a run's own timeout fired its abort signal: how long the tool may take to stop before the engine is killed. */
const GRACE_MS = 1_000

const HANDLE = Symbol.for("@opencode-ai/tool-tester/bun-engine")

type Outcome =
  | { kind: "value"; value: unknown }
  | { kind: "error"; error: { code: string; message: string; data?: Record<string, unknown> } }
  | { kind: "exited"; exitCode: number | null; crash: string | undefined }
  | { kind: "timeout" }

/** Loads a project in a new engine process; the returned snapshot carries the engine along. */
export async function openRemoteProject(
  location: BunLocation,
  options: RemoteLoadOptions & { directory: string },
): Promise<ToolProject> {
  const engine = new RemoteEngine(location, options)
  const snapshot = await engine.load()
  // An enumerable symbol: a spread copy of the project still reaches its engine; JSON leaves it out.
  return Object.assign(snapshot, { [HANDLE]: engine })
}

/**
 * Starts an engine ahead of the next project loaded from `directory` with this binary, which takes
 * it instead of starting Bun then: a reload then waits only for the files to load. The inspector
 * keeps one ready for the next save. Nothing of the project is imported before the load.
 */
export function prestartEngine(binary: string, directory: string): void {
  const key = spareKey(binary, directory)
  if (spares.get(key)?.connected) return
  const child = spawnEngine({ binary, source: "option" }, { cwd: directory, console: "inherit" })
  child.on("message", (message: FromEngine) => {
    if (message.type === "ready") upSpares.add(child)
  })
  child.once("exit", () => {
    if (spares.get(key) === child) spares.delete(key)
  })
  idle(child)
  spares.set(key, child)
}

/** Ends the engine started ahead for this binary and folder, if one is waiting. */
export function discardPrestartedEngine(binary: string, directory: string): void {
  const key = spareKey(binary, directory)
  const child = spares.get(key)
  spares.delete(key)
  if (child) endEngine(child)
}

/** The engine a project was loaded in, when it was loaded by the bun engine from Node. */
export function remoteEngineOf(project: ToolProject): RemoteEngine | undefined {
  return (project as { [HANDLE]?: RemoteEngine })[HANDLE]
}

export class RemoteEngine {
  readonly #location: BunLocation
  readonly #options: RemoteLoadOptions & { directory: string }
  #child: EngineProcess | undefined
  #loaded: Promise<ToolProject> | undefined
  readonly #pending = new Map<number, (outcome: Outcome) => void>()
  #nextId = 1
  #crash: string | undefined
  #closed = false

  constructor(location: BunLocation, options: RemoteLoadOptions & { directory: string }) {
    this.#location = location
    this.#options = options
  }

  /** Starts the engine (again, after a tool ended it) and loads the project there. */
  load(): Promise<ToolProject> {
    if (this.#closed)
      return Promise.reject(new ToolTesterError("ENGINE_FAILED", "this project was closed: load it again"))
    this.#loaded ??= this.#request({ method: "load", params: this.#options }).then((outcome) => {
      if (outcome.kind === "value") return outcome.value as ToolProject
      this.#loaded = undefined
      throw loadError(outcome, this.#location)
    })
    return this.#loaded
  }

  schemas(options: ListOptions): Promise<unknown> {
    return this.#value({ method: "schemas", params: options })
  }

  async run(
    project: ToolProject,
    call: { name: string; args: unknown } | { call: RawToolCall },
    options: RunOptions,
  ): Promise<RunResult> {
    const started = performance.now()
    const { signal, ...remoteOptions } = options
    const params = { options: remoteOptions as RemoteRunOptions }
    const request: EngineCall =
      "call" in call
        ? { method: "call", params: { ...params, call: call.call } }
        : { method: "run", params: { ...params, name: call.name, args: call.args } }
    await this.load()
    const outcome = await this.#request(request, {
      signal,
      backstopMs: options.timeoutMs === undefined ? undefined : options.timeoutMs + GRACE_MS,
    })
    if (outcome.kind === "value") {
      // JSON leaves out what is undefined; a result has every key.
      const result = outcome.value as RunResult
      return { ...result, args: result.args, attachments: result.attachments, outputPath: result.outputPath }
    }
    if (outcome.kind === "error") throw toError(outcome.error)
    const raw = "call" in call ? call.call : { name: call.name, rawArguments: JSON.stringify(call.args ?? {}) }
    return unreachedResult(project, raw, options, {
      durationMs: Math.round(performance.now() - started),
      error:
        outcome.kind === "timeout"
          ? {
              code: "TOOL_TIMEOUT",
              message: `the tool did not finish within ${options.timeoutMs} ms and did not stop ${GRACE_MS} ms after its abort signal: its engine was stopped`,
            }
          : exitedError(outcome.exitCode, outcome.crash),
    })
  }

  /** Ends the engine and whatever the tools started; later calls fail. */
  close(): void {
    this.#closed = true
    if (this.#child) endEngine(this.#child)
  }

  async #value(call: EngineCall): Promise<unknown> {
    await this.load()
    const outcome = await this.#request(call)
    if (outcome.kind === "value") return outcome.value
    if (outcome.kind === "error") throw toError(outcome.error)
    throw new ToolTesterError(
      "ENGINE_FAILED",
      exitedError(
        outcome.kind === "exited" ? outcome.exitCode : null,
        outcome.kind === "exited" ? outcome.crash : undefined,
      ).message,
    )
  }

  #request(
    call: EngineCall,
    options: { signal?: AbortSignal | undefined; backstopMs?: number | undefined } = {},
  ): Promise<Outcome> {
    const child = this.#start()
    const id = this.#nextId++
    if (!child.connected) return Promise.resolve({ kind: "exited", exitCode: child.exitCode, crash: this.#crash })
    return new Promise<Outcome>((resolve) => {
      let timer: NodeJS.Timeout | undefined
      const abort = () => child.send({ type: "abort", id })
      this.#pending.set(id, (outcome) => {
        clearTimeout(timer)
        options.signal?.removeEventListener("abort", abort)
        this.#pending.delete(id)
        if (this.#pending.size === 0) idle(child)
        resolve(outcome)
      })
      busy(child)
      if (options.backstopMs !== undefined) {
        timer = setTimeout(() => {
          this.#settle(id, { kind: "timeout" })
          this.#ended(child, { kind: "exited", exitCode: null, crash: "another call stopped the engine" })
          endEngine(child)
        }, options.backstopMs)
      }
      child.send({ type: "call", id, ...call })
      if (options.signal?.aborted) abort()
      else options.signal?.addEventListener("abort", abort, { once: true })
    })
  }

  /** The engine is gone (or going): its pending calls fail, and the next call starts a new one. */
  #ended(child: EngineProcess, outcome: Outcome): void {
    if (this.#child !== child) return
    this.#child = undefined
    this.#loaded = undefined
    for (const id of [...this.#pending.keys()]) this.#settle(id, outcome)
  }

  #settle(id: number, outcome: Outcome): void {
    this.#pending.get(id)?.(outcome)
  }

  #start(): EngineProcess {
    if (this.#child) return this.#child
    const spare = takeSpare(this.#location.binary, this.#options.directory)
    const child = spare ?? spawnEngine(this.#location, { cwd: this.#options.directory, console: "inherit" })
    this.#child = child
    this.#crash = undefined
    let ready = spare !== undefined && upSpares.has(spare)
    child.on("message", (message: FromEngine) => {
      if (message.type === "ready") ready = true
      if (message.type === "crash") this.#crash = message.message
      if (message.type !== "reply") return
      this.#settle(
        message.id,
        "error" in message
          ? { kind: "error", error: message.error }
          : { kind: "value", value: JSON.parse(message.value) },
      )
    })
    child.on("error", (error: Error) =>
      this.#ended(child, {
        kind: "exited",
        exitCode: null,
        crash: `could not start ${this.#location.binary}: ${error.message}`,
      }),
    )
    child.on("exit", (code: number | null, signal: NodeJS.Signals | null) =>
      this.#ended(child, {
        kind: "exited",
        exitCode: code ?? (signal ? 128 : null),
        crash: ready
          ? this.#crash
          : `could not start ${this.#location.binary}: it exited with code ${code ?? signal} before it was up`,
      }),
    )
    idle(child)
    return child
  }
}

// --- internal ---

const spares = new Map<string, EngineProcess>()
/** The spares that said they are up (before a project took them, and so before its listener). */
const upSpares = new WeakSet<EngineProcess>()

/** By the binary's real path: a project names its binary as found (a symlink, say), the inspector as resolved. */
function spareKey(binary: string, directory: string): string {
  let real = binary
  try {
    real = realpathSync(binary)
  } catch {}
  return `${real}\0${directory}`
}

/** The engine started ahead for this binary and folder, when it is still up; it is no longer a spare. */
function takeSpare(binary: string, directory: string): EngineProcess | undefined {
  const key = spareKey(binary, directory)
  const child = spares.get(key)
  spares.delete(key)
  return child?.connected ? child : undefined
}

/** While a call is pending, the engine keeps this process alive; otherwise it does not. */
function busy(child: EngineProcess): void {
  child.ref()
}

function idle(child: EngineProcess): void {
  child.unref()
}

function toError(error: { code: string; message: string; data?: Record<string, unknown> }): ToolTesterError {
  return new ToolTesterError(error.code as never, error.message, error.data === undefined ? {} : { data: error.data })
}

function loadError(outcome: Exclude<Outcome, { kind: "value" }>, location: BunLocation): ToolTesterError {
  if (outcome.kind === "error") return toError(outcome.error)
  if (outcome.kind === "exited" && outcome.crash?.startsWith("could not start")) {
    return new ToolTesterError(
      "ENGINE_FAILED",
      `${outcome.crash}: pass another --engine-binary, or use the node engine`,
      {
        data: { binary: location.binary },
      },
    )
  }
  const crash = outcome.kind === "exited" ? outcome.crash : undefined
  return new ToolTesterError(
    "IMPORT_FAILED",
    crash
      ? `a tool or plugin file crashed the engine while loading: ${crash}`
      : `a tool or plugin file ended the engine while loading (process.exit(${outcome.kind === "exited" ? outcome.exitCode : "?"})); opencode itself would exit: remove the process.exit call`,
  )
}

function exitedError(exitCode: number | null, crash: string | undefined): { code: "TOOL_EXITED"; message: string } {
  return crash
    ? {
        code: "TOOL_EXITED",
        message: `an error escaped the tool (thrown outside the promise execute returns, such as in a timer): ${crash}; opencode may crash: catch it inside execute`,
      }
    : {
        code: "TOOL_EXITED",
        message: `the tool ended its process with process.exit(${exitCode ?? "?"}); under opencode that stops opencode itself: throw an Error instead`,
      }
}
