// The library's side of an engine's process: loadTools() starts one per project (the bun engine)
// and keeps it for the calls that follow (a test file that runs a tool a hundred times starts Bun
// once). The project it returns is a snapshot; the live tools stay in the engine, and runTool,
// callTool and getToolSchemas send their work there. A tool that ends the engine (process.exit,
// an error escaping into a timer, a busy loop past its timeout) fails its call; the next call
// starts a new engine and loads the project again. So does the call after one whose tool closed the
// engine's stdin (`stdin-closed`): that engine answers what it had read, and is ended then.
import { realpathSync } from "node:fs"
import { safeStringify } from "../_json-safe.ts"
import { terminalSafe } from "../_terminal-safe.ts"
import { stringifyKeepingNegativeZero } from "../_negative-zero-json.ts"
import { callStub } from "../client/project-client.ts"
import type { Result, ToolTesterErrorCode } from "../errors.ts"
import { ToolTesterError } from "../errors.ts"
import type { ToolSchema } from "../pipeline/tool-schemas.ts"
import { attachEngine, engineOf } from "../project-engine/engine-of.ts"
import { type CallTarget, type ProjectEngine, projectClosed } from "../project-engine/project-engine.ts"
import type { ClientStub, ListOptions, RunOptions, RunResult, ToolProject } from "../types.ts"
import type { EngineSelection } from "./choose-engine.ts"
import type { EngineExit } from "./engine-connection.ts"
import { EngineConnection } from "./engine-connection.ts"
import { loadStalled } from "./load-stalled.ts"
import { plugNPlayAdvice } from "./plug-n-play.ts"
import type { CrossingError, EngineCall, RemoteLoadOptions, RemoteRunOptions } from "./protocol.ts"
import type { EngineConsole } from "./spawn-engine.ts"
import { unreachedResult } from "./unreached-result.ts"
import { exitedWith } from "../runtime/exit-in-call.ts"

/** After a run's own timeout fired its abort signal: how long the tool may take to stop before the engine is killed. */
const GRACE_MS = 1_000

/** As it was when this module loaded: a caller's fake timers (vi.useFakeTimers) cannot hold back a bound that fired. */
const runAfterInput = setImmediate

type Outcome =
  | { kind: "value"; value: unknown }
  | { kind: "error"; error: CrossingError }
  | { kind: "exited"; exit: EngineExit }
  | { kind: "timeout" }
  /** The caller's signal aborted, and the tool did not stop within the grace after: the engine was ended. */
  | { kind: "unstopped" }

/** Loads a project in a new engine process; the returned snapshot carries the engine along. */
export async function openRemoteProject(
  selection: EngineSelection,
  options: RemoteLoadOptions & {
    directory: string
    client?: ClientStub
    console?: EngineConsole
    /** How long loading the files may take; past it the engine is ended and the load fails (TOOL_TIMEOUT). Default: no bound. */
    loadTimeoutMs?: number
    /** Aborting ends the engine and fails the load (the inspector closing mid-load). */
    signal?: AbortSignal
  },
): Promise<ToolProject> {
  const engine = new RemoteEngine(selection, options)
  return attachEngine(await engine.load(), engine)
}

/**
 * Starts an engine ahead of the next project loaded from `directory` with this runtime and console,
 * which takes it instead of starting one then: a reload then waits only for the files to load. The
 * inspector keeps one ready for the next save. Nothing of the project is imported before the load.
 */
export function prestartEngine(selection: EngineSelection, directory: string, output: EngineConsole): void {
  const key = spareKey(selection, directory, output)
  if (spares.get(key)?.connected) return
  const connection = new EngineConnection(selection, { cwd: directory, console: output })
  void connection.exited.then(() => {
    if (spares.get(key) === connection) spares.delete(key)
  })
  connection.keepAlive(false)
  spares.set(key, connection)
}

/** Ends the engine started ahead for this runtime, folder and console, if one is waiting. */
export function discardPrestartedEngine(selection: EngineSelection, directory: string, output: EngineConsole): void {
  const key = spareKey(selection, directory, output)
  const connection = spares.get(key)
  spares.delete(key)
  connection?.end()
}

/**
 * Ends the process of the engine a project loaded by openRemoteProject runs in (and what its tools
 * started): the calls pending there end as when a tool ends it, `reason` saying how; the next call
 * starts a new engine and loads the project again. The inspector stops a cancelled call so when
 * its tool ignores its abort signal. Nothing for a project whose tools run in this process.
 */
export function restartEngine(project: ToolProject, reason: string): void {
  const engine = engineOf(project)
  if (engine instanceof RemoteEngine) engine.restart(reason)
}

/** Signals whose aborts their caller follows up itself (the inspector's cancel, with its own grace). */
const ownGrace = new WeakSet<AbortSignal>()

/**
 * A call aborted by `signal` is left to its caller: by default, a tool that has not stopped
 * GRACE_MS after its call was aborted has its engine ended; the inspector does that itself, with
 * its own grace, and says which call it cancelled.
 */
export function followAbortsHere(signal: AbortSignal): void {
  ownGrace.add(signal)
}

/** A project's engine when its tools live in an engine's process (project-engine/project-engine.ts). */
class RemoteEngine implements ProjectEngine {
  readonly #selection: EngineSelection
  readonly #options: RemoteLoadOptions & { directory: string }
  readonly #stub: ClientStub | undefined
  readonly #console: EngineConsole
  #connection: EngineConnection | undefined
  #loaded: Promise<ToolProject> | undefined
  readonly #pending = new Map<number, (outcome: Outcome) => void>()
  /** The engine each pending call was sent to. */
  readonly #sentTo = new Map<number, EngineConnection>()
  /** The tool each pending call calls: what the lines printed while it runs are labelled with. */
  readonly #calling = new Map<number, string>()
  /** The tool each engine ran last: the label of what is read after its call ended (a late line, a timer). */
  readonly #calledLast = new WeakMap<EngineConnection, string>()
  #nextId = 1
  #closed = false
  /** The module files the engine said its calls have imported by now (load's and later), not yet put on the project. */
  #modules: string[] | undefined
  /** The file the engine said it was importing last, while it loads the project. */
  #loadingFile: string | undefined
  /** The plugin function of that file whose init the engine said it was running, once imported. */
  #loadingInit: string | undefined
  readonly #loadTimeoutMs: number | undefined
  readonly #signal: AbortSignal | undefined

  constructor(
    selection: EngineSelection,
    options: RemoteLoadOptions & {
      directory: string
      client?: ClientStub
      onServerLog?: (line: string) => void
      console?: EngineConsole
      loadTimeoutMs?: number
      signal?: AbortSignal
    },
  ) {
    this.#selection = selection
    // A stub (functions) stays here and answers the engine's `client` messages; the rest crosses.
    const { client, onServerLog: _log, console: output = "inherit", loadTimeoutMs, signal, ...crossing } = options
    this.#loadTimeoutMs = loadTimeoutMs
    this.#signal = signal
    this.#stub = client
    this.#console = output
    this.#options = client === undefined ? crossing : { ...crossing, relayClient: true }
  }

  /** Starts the engine (again, after a tool ended it) and loads the project there. */
  load(): Promise<ToolProject> {
    if (this.#closed) return Promise.reject(projectClosed())
    if (this.#signal?.aborted) return Promise.reject(projectClosed())
    this.#loadingFile = undefined
    this.#loadingInit = undefined
    const bound = this.#loadTimeoutMs
    this.#loaded ??= this.#request(
      { method: "load", params: this.#options },
      {
        ...(bound === undefined ? {} : { backstopMs: bound }),
        signal: this.#signal,
        endOnAbort: "the load was abandoned",
      },
    ).then((outcome) => {
      if (outcome.kind === "value") return outcome.value as ToolProject
      this.#loaded = undefined
      if (this.#signal?.aborted) throw projectClosed()
      if (outcome.kind === "timeout") throw loadTimeoutError(this.#loadingFile, this.#loadingInit, bound ?? 0)
      throw loadError(outcome, binaryOf(this.#selection), this.#loadingFile)
    })
    return this.#loaded
  }

  async schemas(_project: ToolProject, options: ListOptions): Promise<Result<ToolSchema[]>> {
    const result = (await this.#value({ method: "schemas", params: options })) as Result<ToolSchema[], CrossingError>
    if (result.success) return result
    const { code, message, data } = result.error
    return {
      success: false,
      error: new ToolTesterError(code as ToolTesterErrorCode, message, data === undefined ? {} : { data }),
    }
  }

  /**
   * doctor's findings for the loaded project (tasks/doctor-task.ts), paths shown from `cwd`. An
   * aborted `signal` ends the engine at once, in the middle of the project's load (a new engine
   * loads it again first) or of doctor's own work, which cannot hear an abort, and rejects with
   * the signal's reason; the next call starts a new engine.
   */
  async doctor(options: { cwd: string }, signal?: AbortSignal): Promise<unknown> {
    if (signal === undefined) return this.#value({ method: "doctor", params: options })
    signal.throwIfAborted()
    const why = "doctor was stopped (the toLoadInOpencode() signal was aborted), and the engine with it: run it again"
    const stop = () => this.restart(why)
    signal.addEventListener("abort", stop, { once: true })
    try {
      await this.load()
    } catch (error) {
      signal.throwIfAborted()
      throw error
    } finally {
      signal.removeEventListener("abort", stop)
    }
    const outcome = await this.#request({ method: "doctor", params: options }, { signal, endOnAbort: why })
    signal.throwIfAborted()
    return answerOf(outcome)
  }

  async run(project: ToolProject, call: CallTarget, options: RunOptions): Promise<RunResult> {
    const started = performance.now()
    const { signal, ...remoteOptions } = options
    const params = { options: remoteOptions as RemoteRunOptions }
    const request: EngineCall =
      "call" in call
        ? { method: "call", params: { ...params, call: call.call } }
        : { method: "run", params: { ...params, name: call.name, args: call.args } }
    const name = "call" in call ? call.call.name : call.name
    await this.#reloadFor(
      signal,
      `a call to ${name} was aborted (its signal) while the project was loaded again for it, so that load was ended with its engine: run it again`,
    )
    const outcome = await this.#request(request, {
      tool: name,
      signal,
      backstopMs: options.timeoutMs === undefined ? undefined : options.timeoutMs + GRACE_MS,
      stoppedFor: `a call to ${name} did not finish within its timeoutMs (${options.timeoutMs} ms), so the engine this call shared with it was stopped: run it again`,
      abortGrace:
        signal !== undefined && ownGrace.has(signal)
          ? undefined
          : {
              ms: GRACE_MS,
              stoppedFor: `a call to ${name} was aborted and its tool did not stop within ${GRACE_MS} ms, so the engine this call shared with it was stopped: run it again`,
            },
    })
    this.#addModules(project)
    if (outcome.kind === "value") {
      // JSON leaves out what is undefined; a result has every key.
      const result = outcome.value as RunResult
      // The engine put back what the tool changed, but what it cannot see (a non-configurable
      // key, a captured original) could still change the next call: that one gets a new engine.
      if (result.error?.code === "TOOL_TAMPERED") this.restart("a tool changed the engine's built-ins: it was replaced")
      return { ...result, args: result.args, attachments: result.attachments, outputPath: result.outputPath }
    }
    if (outcome.kind === "error") throw toError(outcome.error)
    const raw =
      "call" in call
        ? call.call
        : { name: call.name, rawArguments: stringifyKeepingNegativeZero(call.args ?? {}) ?? "{}" }
    return unreachedResult(project, raw, options, {
      durationMs: Math.round(performance.now() - started),
      error:
        outcome.kind === "timeout"
          ? {
              code: "TOOL_TIMEOUT",
              message: `the tool did not finish within ${options.timeoutMs} ms and did not stop ${GRACE_MS} ms after its abort signal: its engine was stopped`,
            }
          : outcome.kind === "unstopped"
            ? {
                code: "INTERRUPTED",
                message: `the call was aborted (its signal), and ${name} did not stop within ${GRACE_MS} ms after its abort signal (context.abort) fired, so the engine it ran in was ended with what it started; the next call starts a new one`,
              }
            : (outcome.exit.channel ?? exitedError(outcome.exit)),
    })
  }

  /**
   * The project, loaded again first when an earlier call ended the engine. A `signal` aborted during
   * a load this call started (or before it, when one is needed) ends that load and its engine, the
   * calls waiting on it told `why`, and rejects with the signal's reason: a load cannot hear an
   * abort, and a tool file's top-level await could hold it for ever. A load another call started
   * goes on: this call only stops waiting for it.
   */
  async #reloadFor(signal: AbortSignal | undefined, why: string): Promise<void> {
    if (signal === undefined) {
      await this.load()
      return
    }
    const starts = this.#loaded === undefined
    if (starts) signal.throwIfAborted()
    const loading = this.load()
    let stop: (() => void) | undefined
    const aborted = new Promise<never>((_resolve, reject) => {
      stop = () => {
        // Still the engine of this call's load (not a new one another call started since): it ends.
        if (starts && this.#loaded === loading) this.restart(why)
        reject(signal.reason)
      }
      signal.addEventListener("abort", stop, { once: true })
    })
    aborted.catch(() => undefined)
    try {
      await Promise.race([loading, aborted])
    } catch (error) {
      signal.throwIfAborted()
      throw error
    } finally {
      if (stop) signal.removeEventListener("abort", stop)
    }
  }

  /** Ends the engine (and whatever the tools started); the next call starts a new one and loads the project again. */
  restart(reason: string): void {
    if (this.#connection) this.#stop(this.#connection, reason)
  }

  /** Ends the engine and whatever the tools started; later calls fail. */
  close(): void {
    this.#closed = true
    this.#connection?.end()
  }

  /**
   * A call imported modules the load did not (an `import()` inside `execute`): they join the
   * project's `modules`, which `dev` watches (the engine says so before the call's answer).
   */
  #addModules(project: ToolProject): void {
    const files = this.#modules
    if (files === undefined) return
    this.#modules = undefined
    project.modules = [...new Set([...(project.modules ?? []), ...files])]
  }

  async #value(call: EngineCall): Promise<unknown> {
    await this.load()
    return answerOf(await this.#request(call))
  }

  #request(
    call: EngineCall,
    options: {
      /** The tool a call calls (what its printed lines are labelled with). */
      tool?: string
      signal?: AbortSignal | undefined
      backstopMs?: number | undefined
      /** What the other calls in the engine are told when the backstop ends it. */
      stoppedFor?: string
      /**
       * The signal ends the engine itself (a load, doctor's work), instead of asking the engine to
       * abort the call: what the other calls pending there are told.
       */
      endOnAbort?: string
      /**
       * After the signal asked the engine to abort the call: how long its tool may take to stop. Past
       * it (a tool that ignores its signal, or keeps the engine too busy to read it) the call ends
       * `unstopped` and the engine is ended, the other calls there told `stoppedFor`.
       */
      abortGrace?: { ms: number; stoppedFor: string } | undefined
    } = {},
  ): Promise<Outcome> {
    const connection = this.#start()
    const id = this.#nextId++
    if (!connection.connected) {
      // It ended before the call could be sent (a binary that exits at once): this process waits
      // to see how, as for a call, or a script awaiting loadTools() would exit without an answer.
      connection.keepAlive(true)
      return connection.exited.then((exit) => {
        connection.keepAlive(false)
        return { kind: "exited", exit }
      })
    }
    return new Promise<Outcome>((resolve) => {
      let timer: NodeJS.Timeout | undefined
      let graceTimer: NodeJS.Timeout | undefined
      const grace = options.abortGrace
      // Past a bound, the call ends only if its answer is not here yet. This process may have been
      // too busy to read when the bound passed (a test's synchronous work, a loaded machine), and
      // expired timers run before the input that came meanwhile is read: an answer the engine sent
      // in time, a tool that returned, waited unread while its call was ended TOOL_TIMEOUT or
      // INTERRUPTED and its engine stopped. setImmediate runs once that input has been read.
      const unlessAnswered = (end: () => void) => () =>
        runAfterInput(() => {
          if (this.#pending.has(id)) end()
        })
      const askToAbort = () => {
        connection.send({ type: "abort", id })
        if (grace)
          graceTimer = setTimeout(
            unlessAnswered(() => {
              this.#settle(id, { kind: "unstopped" })
              this.#stop(connection, grace.stoppedFor)
            }),
            grace.ms,
          )
      }
      const endOnAbort = options.endOnAbort
      const abort = endOnAbort === undefined ? askToAbort : () => this.#stop(connection, endOnAbort)
      this.#pending.set(id, (outcome) => {
        clearTimeout(timer)
        clearTimeout(graceTimer)
        options.signal?.removeEventListener("abort", abort)
        this.#pending.delete(id)
        this.#sentTo.delete(id)
        if (options.tool !== undefined) this.#calledLast.set(connection, options.tool)
        this.#calling.delete(id)
        // While a call is pending, the engine keeps this process alive; otherwise it does not.
        if (this.#pending.size === 0) connection.keepAlive(false)
        // An engine that reads no more is ended once it has answered what it read.
        if (connection.deaf && this.#connection !== connection && !this.#waitsOn(connection)) connection.end()
        resolve(outcome)
      })
      this.#sentTo.set(id, connection)
      if (options.tool !== undefined) this.#calling.set(id, options.tool)
      connection.keepAlive(true)
      if (options.backstopMs !== undefined) {
        timer = setTimeout(
          unlessAnswered(() => {
            this.#settle(id, { kind: "timeout" })
            this.#stop(connection, options.stoppedFor ?? "another call stopped the engine")
          }),
          options.backstopMs,
        )
      }
      const abortedAlready = options.signal?.aborted === true && endOnAbort === undefined
      connection.send(abortedAlready ? { type: "call", id, aborted: true, ...call } : { type: "call", id, ...call })
      if (options.signal?.aborted) abort()
      else options.signal?.addEventListener("abort", abort, { once: true })
    })
  }

  /** Ends an engine for one call's sake: the other calls pending there end INTERRUPTED, told `why`. */
  #stop(connection: EngineConnection, why: string): void {
    this.#ended(connection, { kind: "exited", exit: { exitCode: 1, crash: why, started: true, interrupted: true } })
    connection.end()
  }

  /** A plugin in the engine called `input.client`: the stub answers, here where it lives. */
  async #answerClient(connection: EngineConnection, message: { id: number; method: string; args: string }) {
    try {
      const value = await callStub(this.#stub ?? {}, message.method, JSON.parse(message.args) as unknown[])
      connection.send({ type: "client-reply", id: message.id, value: safeStringify(value) })
    } catch (error) {
      const crossing: CrossingError = ToolTesterError.isInstance(error)
        ? { code: error.code, message: error.message }
        : { code: "INTERNAL", message: error instanceof Error ? error.message : String(error) }
      connection.send({ type: "client-reply", id: message.id, error: crossing })
    }
  }

  /** The engine is gone (or going): its pending calls fail, and the next call starts a new one. */
  #ended(connection: EngineConnection, outcome: Outcome): void {
    if (this.#connection === connection) {
      this.#connection = undefined
      this.#loaded = undefined
    }
    for (const id of [...this.#pending.keys()]) if (this.#sentTo.get(id) === connection) this.#settle(id, outcome)
  }

  /**
   * A tool closed the engine's stdin: it reads nothing more. The calls it read are still answered
   * there; those sent after never reached it and fail; the next call starts a new engine.
   */
  #deafened(connection: EngineConnection, lastCall: number): void {
    if (this.#connection === connection) {
      this.#connection = undefined
      this.#loaded = undefined
    }
    let lost = 0
    for (const id of [...this.#pending.keys()])
      if (id > lastCall && this.#sentTo.get(id) === connection) {
        lost++
        this.#settle(id, {
          kind: "error",
          error: {
            code: "ENGINE_FAILED",
            message:
              "the call was sent to an engine whose stdin a tool had just closed (file descriptor 0), so it never arrived: run it again",
          },
        })
      }
    // (The last of those settled ended it already, when nothing else was pending there.)
    if (lost === 0 && !this.#waitsOn(connection)) connection.end()
  }

  #waitsOn(connection: EngineConnection): boolean {
    for (const sent of this.#sentTo.values()) if (sent === connection) return true
    return false
  }

  /**
   * What a line the tools print in `connection` starts with (console "labelled"): the tool whose
   * call runs there (`[weather]`; `[weather|big]` when calls of several run at once), else the one
   * that ran last, else `[load]` (a tool file's top-level code, a plugin's init).
   */
  #consoleLabel(connection: EngineConnection): string {
    const running = new Set<string>()
    for (const [id, tool] of this.#calling) if (this.#sentTo.get(id) === connection) running.add(tool)
    const last = this.#calledLast.get(connection)
    const tools = running.size > 0 ? [...running] : last === undefined ? ["load"] : [last]
    return `[${terminalSafe(tools.join("|"))}]`
  }

  #settle(id: number, outcome: Outcome): void {
    this.#pending.get(id)?.(outcome)
  }

  #start(): EngineConnection {
    if (this.#connection) return this.#connection
    const connection =
      takeSpare(this.#selection, this.#options.directory, this.#console) ??
      new EngineConnection(this.#selection, { cwd: this.#options.directory, console: this.#console })
    this.#connection = connection
    connection.labelConsole(() => this.#consoleLabel(connection))
    connection.onMessage((message) => {
      if (message.type === "loading") {
        this.#loadingFile = message.file
        this.#loadingInit = "init" in message ? message.init : undefined
      }
      if (message.type === "modules") this.#modules = message.files
      if (message.type === "client") void this.#answerClient(connection, message)
      if (message.type === "stdin-closed") this.#deafened(connection, message.lastCall)
      if (message.type === "unstopped")
        this.#stop(
          connection,
          `a call to ${message.name} timed out and its tool did not stop within ${message.graceMs} ms after its abort signal, so the engine this call shared with it was stopped: run it again`,
        )
      if (message.type !== "reply") return
      // The engine answers the calls it was given: an answer to one never made means its stdin was
      // written by something else in its process (engine-channel.ts).
      if (!this.#pending.has(message.id)) {
        if (this.#connection === connection)
          connection.distrust(
            `the engine answered call ${message.id}, which was never made: something in its process (the tool, or a process it started) wrote into its stdin, the engine's channel; opencode has no such channel`,
          )
        return
      }
      // What the call printed and was read before its answer is written before it resolves: its last
      // partial line too (with `console: "console"`, a test runner shows it under the test).
      connection.flushConsole()
      this.#settle(
        message.id,
        "error" in message
          ? { kind: "error", error: message.error }
          : { kind: "value", value: JSON.parse(message.value) },
      )
    })
    void connection.exited.then((exit) => this.#ended(connection, { kind: "exited", exit }))
    connection.keepAlive(false)
    return connection
  }
}

// --- internal ---

const spares = new Map<string, EngineConnection>()

/** By the binary's real path: a project names its binary as found (a symlink, say), the inspector as resolved. */
function spareKey(selection: EngineSelection, directory: string, output: EngineConsole): string {
  let real = binaryOf(selection)
  try {
    real = realpathSync(real)
  } catch {}
  return `${selection.name}\0${real}\0${directory}\0${output}`
}

/** The engine started ahead for this runtime, folder and console, when it is still up; it is no longer a spare. */
function takeSpare(selection: EngineSelection, directory: string, output: EngineConsole): EngineConnection | undefined {
  const key = spareKey(selection, directory, output)
  const connection = spares.get(key)
  spares.delete(key)
  return connection?.connected ? connection : undefined
}

function binaryOf(selection: EngineSelection): string {
  return selection.name === "bun" ? selection.location.binary : process.execPath
}

/** What a request that is not a tool call answered, or the error it ended with. */
function answerOf(outcome: Outcome): unknown {
  if (outcome.kind === "value") return outcome.value
  if (outcome.kind === "error") throw toError(outcome.error)
  if (outcome.kind === "exited" && outcome.exit.channel) throw toError(outcome.exit.channel)
  throw new ToolTesterError(
    "ENGINE_FAILED",
    outcome.kind === "exited" ? exitedError(outcome.exit).message : "the engine was stopped",
  )
}

function toError(error: CrossingError): ToolTesterError {
  return new ToolTesterError(error.code as never, error.message, error.data === undefined ? {} : { data: error.data })
}

/** Why a load failed; `file` is the one the engine said it was importing last, when it ended. */
function loadError(outcome: Exclude<Outcome, { kind: "value" }>, binary: string, file?: string): ToolTesterError {
  if (outcome.kind === "error") return toError(outcome.error)
  if (outcome.kind === "exited" && outcome.exit.channel) return toError(outcome.exit.channel)
  if (outcome.kind === "exited" && !outcome.exit.started) {
    const why =
      outcome.exit.crash ?? `could not start ${binary}: it exited with code ${outcome.exit.exitCode} before it was up`
    const advice = plugNPlayAdvice() ?? "pass another --engine-binary, or use the node engine"
    return new ToolTesterError("ENGINE_FAILED", `${why}: ${advice}`, {
      data: { binary },
    })
  }
  const exit = outcome.kind === "exited" ? outcome.exit : undefined
  // As `list` says it (tasks/task-failure.ts): the file whose import was running when it ended.
  const who = file === undefined ? "a tool or plugin file ended the engine" : `${file}: ended the process`
  return new ToolTesterError(
    "IMPORT_FAILED",
    exit?.crash
      ? `${who} while loading: ${exit.crash}`
      : `${who} while loading (${exit ? howItEnded(exit) : "it was stopped"}); opencode itself would exit: remove the process.exit call`,
    { data: file === undefined ? {} : { file } },
  )
}

/** A load past its bound: the file the engine was importing never finished (or the engine never answered). */
function loadTimeoutError(file: string | undefined, init: string | undefined, loadTimeoutMs: number): ToolTesterError {
  return new ToolTesterError("TOOL_TIMEOUT", loadStalled(file, init, loadTimeoutMs), {
    data: { loadTimeoutMs, ...(file === undefined ? {} : { file }), ...(init === undefined ? {} : { init }) },
  })
}

function exitedError(exit: EngineExit): { code: "TOOL_EXITED" | "INTERRUPTED"; message: string } {
  // Ended for another call's sake: nothing this call's tool did.
  if (exit.interrupted && exit.crash) return { code: "INTERRUPTED", message: exit.crash }
  if (exit.crash)
    return {
      code: "TOOL_EXITED",
      message: `the engine running the tool ended: ${exit.crash}`,
    }
  if (exit.signal)
    return {
      code: "TOOL_EXITED",
      message: `the engine running the tool was killed by ${exit.signal} (${exit.signal === "SIGKILL" ? "out of memory, or killed from outside" : "a signal"}); under opencode that stops opencode itself`,
    }
  return {
    code: "TOOL_EXITED",
    message: exitedWith(exit.exitCode),
  }
}

function howItEnded(exit: EngineExit): string {
  return exit.signal ? `killed by ${exit.signal}` : `process.exit(${exit.exitCode})`
}
