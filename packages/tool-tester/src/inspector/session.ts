// One inspected project over time: loaded, shown, called, and loaded again on every save, with the
// last call re-run so the page shows what the edit changed. Everything the page sees arrives as
// an event; the HTTP layer only forwards them.
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { definedFields } from "../_defined-fields.ts"
import { statOf } from "../_file-stats.ts"
import type { Finding } from "../doctor/finding.ts"
import type { EngineSelection } from "../engine-client/choose-engine.ts"
import { chooseEngine } from "../engine-client/choose-engine.ts"
import {
  discardPrestartedEngine,
  openRemoteProject,
  followAbortsHere,
  prestartEngine,
  restartEngine,
} from "../engine-client/remote-project.ts"
import { ToolTesterError } from "../errors.ts"
import { defaultDataDirectory } from "../pipeline/data-directory.ts"
import type { ModelModality } from "../pipeline/model-messages.ts"
import { modelSelection } from "../pipeline/model-selection.ts"
import { opencodeAbortReason } from "../pipeline/opencode-abort.ts"
import { callTool, closeProject, runTool } from "../run-tool.ts"
import type { EngineChoice } from "../runtime/here.ts"
import type { RunResult, ToolProject } from "../types.ts"
import { boundValue, ENTRY_BUDGET } from "./bounded.ts"
import type { ProjectView } from "./project-view.ts"
import { aboutOffered, failedView, noToolsReason, projectView, withFindings } from "./project-view.ts"
import type { ProjectWatcher, WatchTargets } from "./watch-project.ts"
import { projectWatchTargets, watchProject } from "./watch-project.ts"

export type InspectorOptions = {
  directory: string
  /** False leaves out the user-level config folders (--no-global). */
  global?: boolean
  plugins?: string[]
  engine?: EngineChoice
  engineBinary?: string
  /** Paths in findings are relative to it. */
  cwd: string
  /** How long one call may run (`dev --timeout`). Default 60 s. */
  timeoutMs?: number
  /**
   * After a cancel fired a call's abort signal: how long its tool may take to stop before the
   * engine it runs in is ended. Default 1 s, as `run` gives a tool after its timeout.
   */
  cancelGraceMs?: number
  /**
   * doctor's findings for the project. The CLI runs doctor in an engine of its own (under the bun
   * engine the tools live in Bun, where doctor must look at them). Default: none.
   */
  diagnose?: (project: ToolProject) => Promise<Finding[]>
  /** Reload on save. Default true. */
  watch?: boolean
  /**
   * How long loading the tool files may take (`TOOL_TESTER_LOAD_TIMEOUT_MS`, as for list): past it
   * the engine is ended and the page shows TOOL_TIMEOUT naming the file. Default 60 s.
   */
  loadTimeoutMs?: number
}

/**
 * The model a call is made for, as the page chose it: a provider name or npm package (`run
 * --provider`), the model id (`--model`) and what it takes besides text (`--model-input`). It
 * decides what the model's next request carries of the result (`modelMessages`). None: the default,
 * openai-compatible's `mock-model` without image or PDF input.
 */
export type CallModel = { provider: string; modelID: string; input: ModelModality[] }

/** A call as the page asks for it: parsed arguments, or the raw text a model sent (through opencode's repair). */
export type CallRequest = { name: string; model?: CallModel } & (
  | { form: "args"; args: unknown }
  | { form: "raw"; text: string }
)

export type HistoryEntry = {
  /** The order calls started in: the history is kept in it. */
  id: number
  /** When the call started. */
  at: string
  /**
   * The call has not ended yet: it has no result or error. It is in the history from its start
   * (sent as a `call` event, then again when it ends) and can be cancelled.
   */
  running?: true
  /** A cancel of the running call was asked for: its abort signal fired. */
  cancelling?: true
  /** What made the call: the page, a replay of an earlier one, or a save. */
  trigger: "run" | "replay" | "reload"
  /**
   * The page that asked for the call (run or replay), by the id it made when it opened: that page
   * shows the result beside the tool; the other pages only list the call in their history.
   */
  page?: string
  /**
   * A save's re-run (trigger `reload`): the call it runs again, the last one a page or a replay
   * made. A page that shows that call (or an earlier re-run of it) shows this one in its place.
   */
  reruns?: number
  request: CallRequest
  /** The load it ran in (ProjectView.generation). */
  generation: number
  engine: ProjectView["engine"]
  result?: RunResult
  /**
   * Why there is no result: the project did not load, or the engine failed. INTERRUPTED when the
   * call was cancelled or a save reloaded the project under it; a cancelled tool that stopped by
   * itself keeps its result beside it.
   */
  error?: { code: string; message: string }
  /**
   * Set when the entry's values were cut to ENTRY_BUDGET characters: the whole call (request,
   * result) is at `GET /api/history/<id>/full`, a path relative to the page.
   */
  full?: string
}

export type InspectorEvent =
  | { type: "project"; view: ProjectView }
  | { type: "reloading"; files: string[] }
  | { type: "call"; entry: HistoryEntry }

/** Where the tools' stdout and stderr go (engine-client/spawn-engine.ts). */
const TOOLS_CONSOLE = "labelled"

/** History kept for replay; older calls are dropped. */
const HISTORY_LIMIT = 100

/** How a call ends when its engine was ended under it (closeProject): what a reload does to it. */
const ENGINE_ENDED = new Set<string>(["TOOL_EXITED", "INTERRUPTED", "ENGINE_FAILED", "CHANNEL_CLOSED"])

/** Default of InspectorOptions.cancelGraceMs. */
const CANCEL_GRACE_MS = 1_000

/** A call a save can run again. */
type LastCall = { request: CallRequest; id: number; page: string | undefined }

/** A call that has not ended, and what a cancel did to it. */
type RunningCall = {
  project: ToolProject | undefined
  controller: AbortController
  /** Resolves to the call's history entry once it ended. */
  ended: Promise<HistoryEntry>
  /** When a cancel fired its abort signal (performance.now()). */
  cancelledAt?: number
  /** The engine was ended to stop it: what ends the call next is that. */
  engineStopped?: boolean
  /** Another call's cancel ended the engine this call ran in. */
  stoppedBy?: number
  timer?: NodeJS.Timeout
}

export class InspectorSession {
  readonly #options: InspectorOptions
  #project: ToolProject | undefined
  #view: ProjectView | undefined
  #loadError: { code: string; message: string } | undefined
  #generation = 0
  #history: HistoryEntry[] = []
  #nextId = 1
  readonly #running = new Map<number, RunningCall>()
  /** The last call a page or a replay made (with the page that asked for it, if one did). */
  #last: LastCall | undefined
  /** The last call each page made, by page id: what a save runs again for each page still open. */
  readonly #lastByPage = new Map<string, LastCall>()
  /** The pages listening for events now, by id, with how many connections each has open. */
  readonly #openPages = new Map<string, number>()
  #listeners = new Set<(event: InspectorEvent) => void>()
  #watcher: ProjectWatcher | undefined
  #loading: Promise<void> | undefined
  #again: string[] | undefined
  #closed = false
  /** Aborted by close(): a load still going ends with its engine. */
  readonly #closing = new AbortController()
  /** The folders the watcher watches, as of the last load. */
  #watchedFolders: Set<string> | undefined
  /**
   * The module files the last load that ended imported: kept when a load fails whole (a helper
   * that never finishes importing), so that the save that fixes it reloads.
   */
  #modules: readonly string[] = []
  /** The load whose modules #modules holds (its calls' imports included). */
  #modulesOf: ToolProject | undefined
  /** When the last load began (Date.now()): a module it imported that was saved since is loaded once more. */
  #loadStartedAt = 0
  #selection: EngineSelection | undefined
  /** Loads a reload replaced, whose engine it ended: a call still running there was stopped by the inspector. */
  #replaced = new WeakSet<ToolProject>()
  /** Where the whole text of calls too large to keep is written; removed on close. */
  #fullFolder: string | undefined

  constructor(options: InspectorOptions) {
    this.#options = options
  }

  /** Loads the project and starts watching it. */
  async start(): Promise<void> {
    // Chosen once: every reload uses the same engine, and under the bun engine one is started
    // ahead of each save, so a reload waits for the files only, not for Bun to start.
    this.#selection = (
      await chooseEngine({
        engine: this.#options.engine,
        engineBinary: this.#options.engineBinary,
        env: process.env,
        directory: this.#options.directory,
      })
    ).selection
    await this.#show(await this.#load())
    this.#prestart()
    this.#watch()
    this.#diagnoseLater()
  }

  view(): ProjectView | undefined {
    return this.#view
  }

  history(): HistoryEntry[] {
    return this.#history
  }

  entry(id: number): HistoryEntry | undefined {
    return this.#history.find((entry) => entry.id === id)
  }

  /**
   * Sends every event to `listener` until the returned function is called. `page`: the page that
   * listens (the id it sends with its calls), which counts as open until then: a save re-runs the
   * last call of each open page.
   */
  subscribe(listener: (event: InspectorEvent) => void, page?: string): () => void {
    this.#listeners.add(listener)
    if (page !== undefined) this.#openPages.set(page, (this.#openPages.get(page) ?? 0) + 1)
    let subscribed = true
    return () => {
      this.#listeners.delete(listener)
      if (!subscribed || page === undefined) return
      subscribed = false
      const left = (this.#openPages.get(page) ?? 1) - 1
      if (left > 0) this.#openPages.set(page, left)
      else this.#openPages.delete(page)
    }
  }

  /**
   * Runs a call and records it: in the history (and sent as a `call` event) from its start, as
   * running, then again with its result once it ended. `page`: the page that asked for it.
   */
  call(request: CallRequest, trigger: HistoryEntry["trigger"] = "run", page?: string): Promise<HistoryEntry> {
    return this.#call(request, trigger, page)
  }

  /**
   * Cancels a running call: fires its abort signal (the tool's `context.abort`, as opencode does
   * when the user stops a session), and ends the engine it runs in when the tool has not stopped
   * `cancelGraceMs` later (a busy loop never sees its signal); the next call starts a new engine.
   * Resolves to the call's entry once it ended. Undefined when no call with this id is running.
   */
  cancel(id: number): Promise<HistoryEntry> | undefined {
    const running = this.#running.get(id)
    if (!running) return undefined
    if (running.cancelledAt === undefined) {
      running.cancelledAt = performance.now()
      // Every page shows the call as being cancelled (the entry as kept: it is not cut again).
      const at = this.#history.findIndex((entry) => entry.id === id && entry.running)
      const shown = this.#history[at]
      if (shown) {
        this.#history[at] = { ...shown, cancelling: true }
        this.#emit({ type: "call", entry: this.#history[at] })
      }
      running.controller.abort(opencodeAbortReason())
      running.timer = setTimeout(() => this.#stopEngine(id, running), this.#options.cancelGraceMs ?? CANCEL_GRACE_MS)
    }
    return running.ended
  }

  /**
   * Runs an earlier call again, as it was made (from its whole text, when the history keeps it
   * cut). `page`: the page that asked for it.
   */
  replay(id: number, page?: string): Promise<HistoryEntry> | undefined {
    const entry = this.entry(id)
    if (!entry) return undefined
    const whole = entry.full === undefined ? entry : (JSON.parse(this.fullEntry(id) ?? "null") as HistoryEntry | null)
    return whole ? this.call(whole.request, "replay", page) : undefined
  }

  /** The whole text of a call whose history entry was cut, as JSON. */
  fullEntry(id: number): string | undefined {
    if (this.entry(id)?.full === undefined) return undefined
    try {
      return readFileSync(this.#fullFile(id), "utf8")
    } catch {
      return undefined
    }
  }

  /**
   * The full output a truncated call saved, when that call is in the history. Only a file in the
   * folder truncation writes to: the result came over the engine's channel, where a tool could
   * have written an outputPath of its own choosing.
   */
  savedOutput(id: number): string | undefined {
    const file = this.entry(id)?.result?.outputPath
    if (file === undefined) return undefined
    try {
      const real = realpathSync(file)
      const folder = realpathSync(path.join(defaultDataDirectory(), "tool-output"))
      const inside = path.relative(folder, real)
      if (inside === "" || inside.startsWith("..") || path.isAbsolute(inside) || !statOf(real).isFile())
        return undefined
      return readFileSync(real, "utf8")
    } catch {
      return undefined
    }
  }

  /** Loads the project again (a save), then re-runs the last call. Saves during a reload are batched into one more. */
  async reload(files: string[] = []): Promise<void> {
    if (this.#closed) return
    if (this.#loading) {
      this.#again = [...(this.#again ?? []), ...files]
      return this.#loading
    }
    this.#emit({ type: "reloading", files })
    let reruns: Array<Promise<HistoryEntry>> = []
    this.#loading = (async () => {
      const loaded = await this.#load()
      // The calls first: their results are what the author waits for; the tool list follows.
      reruns = this.#closed ? [] : this.#toRerun().map((last) => this.#call(last.request, "reload", undefined, last.id))
      await this.#show(loaded)
      this.#prestart()
      // A tools/ or plugins/ folder made since the last load is watched from now on; files written
      // into it before that are read by one more load.
      const appeared = this.#watch()
      if (appeared.length > 0) this.#again = [...(this.#again ?? []), ...appeared]
      // doctor loads the project once more, in an engine of its own: only once the result is out.
      this.#diagnoseLater()
    })()
    try {
      await this.#loading
    } finally {
      this.#loading = undefined
    }
    // The re-runs go on outside the load: a save that comes while one runs (a slow or hanging call)
    // reloads at once, which stops it with the engine it runs in, instead of waiting its timeout.
    const again = this.#again
    this.#again = undefined
    await Promise.all([...reruns, again ? this.reload(again) : undefined])
  }

  async close(): Promise<void> {
    this.#closed = true
    for (const running of this.#running.values()) clearTimeout(running.timer)
    if (this.#fullFolder !== undefined) rmSync(this.#fullFolder, { recursive: true, force: true })
    this.#watcher?.stop()
    this.#listeners.clear()
    // A load or a save's re-run still going ends now, with its engine: closing waits for neither.
    this.#closing.abort()
    if (this.#project) closeProject(this.#project)
    await this.#loading?.catch(() => undefined)
    if (this.#project) closeProject(this.#project)
    this.#project = undefined
    if (this.#selection) discardPrestartedEngine(this.#selection, this.#options.directory, TOOLS_CONSOLE)
  }

  // --- internal ---

  /** Runs a call: `reruns`, for a save's re-run, is the call it runs again. */
  #call(request: CallRequest, trigger: HistoryEntry["trigger"], page?: string, reruns?: number): Promise<HistoryEntry> {
    const id = this.#nextId++
    if (trigger !== "reload") {
      this.#last = { request, id, page }
      if (page !== undefined) this.#lastByPage.set(page, this.#last)
    }
    const entry: HistoryEntry = {
      id,
      at: new Date().toISOString(),
      trigger,
      ...definedFields({ page, reruns }),
      request,
      generation: this.#generation,
      engine: this.#project?.engine ?? this.#view?.engine,
    }
    const project = this.#project
    const running: RunningCall = {
      project,
      controller: new AbortController(),
      ended: Promise.resolve(entry),
    }
    this.#running.set(entry.id, running)
    this.#record({ ...entry, running: true })
    running.ended = this.#settle(entry, running).finally(() => {
      clearTimeout(running.timer)
      this.#running.delete(entry.id)
    })
    return running.ended
  }

  /**
   * What a save runs again: the last call of each page open now (each shows its own results), and
   * the last call made when no page asked for it (a script calling the API). A closed page's calls
   * are not run again: nothing would show them.
   */
  #toRerun(): LastCall[] {
    const calls = [...this.#openPages.keys()].flatMap((page) => this.#lastByPage.get(page) ?? [])
    if (this.#last && this.#last.page === undefined) calls.push(this.#last)
    return calls.sort((a, b) => a.id - b.id)
  }

  /** Runs the call (when there is a tool to call) and says what became of it. */
  async #settle(entry: HistoryEntry, running: RunningCall): Promise<HistoryEntry> {
    const { request } = entry
    const project = running.project
    // A tool file that fails to import leaves opencode with no tool to call: nothing runs.
    const noTools = project && noToolsReason(project)
    if (!project) entry.error = this.#loadError ?? { code: "ENGINE_FAILED", message: "the project is not loaded" }
    else if (noTools) entry.error = noTools
    else {
      const calledAt = Date.now()
      const { signal } = running.controller
      // The call rejected with its signal's reason: a cancel that came while the project was loaded
      // again for it (an earlier call had ended its engine) ended that load; the tool never ran.
      let reloadCancelled = false
      try {
        entry.result = await this.#run(project, request, signal)
      } catch (error) {
        reloadCancelled = signal.aborted && error === signal.reason
        entry.error = errorOf(error)
      }
      this.#watchNewModules(project, calledAt)
      const code = entry.error?.code ?? entry.result?.error?.code
      // The engine's end was the inspector's doing, not the tool's (not an exit, nor running out
      // of memory): a cancel, or a save that reloaded the project while the call ran.
      const ended = entry.error !== undefined || (code !== undefined && ENGINE_ENDED.has(code))
      if (running.cancelledAt !== undefined) {
        const after = Math.round(performance.now() - running.cancelledAt)
        if (reloadCancelled)
          entry.error = {
            code: "INTERRUPTED",
            message: `cancelled from the inspector while the project was loaded again for the call (an earlier call ended its engine): that load was ended with its engine and ${request.name} was not called; the next call loads the project again`,
          }
        else if (running.engineStopped && ended) {
          delete entry.result
          entry.error = {
            code: "INTERRUPTED",
            message: `cancelled from the inspector: ${request.name}'s abort signal (context.abort) fired, but the tool did not stop within ${this.#options.cancelGraceMs ?? CANCEL_GRACE_MS} ms, so the engine it ran in was ended (the next call starts a new one)`,
          }
        } else
          entry.error = {
            code: "INTERRUPTED",
            message: `cancelled from the inspector: ${request.name}'s abort signal (context.abort) fired and the tool stopped ${after} ms later; what it returned or threw is below`,
          }
      } else if (running.stoppedBy !== undefined && ended) {
        delete entry.result
        entry.error = {
          code: "INTERRUPTED",
          message: `stopped: call #${running.stoppedBy} was cancelled and did not stop, so the engine ${request.name} ran in was ended with it; run it again`,
        }
      } else if (this.#replaced.has(project) && code !== undefined && ENGINE_ENDED.has(code)) {
        delete entry.result
        entry.error = {
          code: "INTERRUPTED",
          message: `stopped: a save reloaded the project while ${request.name} ran, which ended the engine it ran in (the reload runs the last call again, on the new code)`,
        }
      }
    }
    return this.#record(entry)
  }

  /** A cancelled call's tool did not stop: its engine is ended, and the other calls running there with it. */
  #stopEngine(id: number, running: RunningCall): void {
    const project = running.project
    if (!this.#running.has(id) || !project) return
    running.engineStopped = true
    for (const [other, call] of this.#running)
      if (other !== id && call.project === project && call.cancelledAt === undefined) call.stoppedBy = id
    restartEngine(project, `call #${id} was cancelled and did not stop`)
  }

  /**
   * Keeps the entry in the history, in the order calls started (a running call's entry is
   * replaced when it ends), and sends it. Returns it as kept.
   */
  #record(entry: HistoryEntry): HistoryEntry {
    const kept = this.#bounded(entry)
    const at = this.#history.findIndex((old) => old.id === entry.id)
    if (at >= 0) this.#history[at] = kept
    else {
      this.#history.push(kept)
      // The oldest call that ended is dropped; a running one stays until it ends.
      if (this.#history.length > HISTORY_LIMIT) {
        const oldest = this.#history.findIndex((old) => !old.running)
        const [dropped] = oldest < 0 ? [] : this.#history.splice(oldest, 1)
        if (dropped?.full !== undefined) rmSync(this.#fullFile(dropped.id), { force: true })
      }
    }
    this.#emit({ type: "call", entry: kept })
    return kept
  }

  /** The entry as the history keeps it: its values cut to ENTRY_BUDGET, the whole of it on disk. */
  #bounded(entry: HistoryEntry): HistoryEntry {
    const budget = { left: ENTRY_BUDGET, cut: false }
    const { request, result, error, ...rest } = entry
    // What the page shows first gets the budget first: the error, the result, then the arguments
    // (the result's own copy of them last).
    const boundError = error === undefined ? undefined : boundValue(error, budget)
    const { args, ...outcome } = result ?? {}
    const boundOutcome = result === undefined ? undefined : (boundValue(outcome, budget) as object)
    const boundRequest = boundValue(request, budget)
    const kept = {
      ...rest,
      request: boundRequest,
      ...(boundOutcome === undefined ? {} : { result: { ...boundOutcome, args: boundValue(args, budget) } }),
      ...(boundError === undefined ? {} : { error: boundError }),
    } as HistoryEntry
    if (!budget.cut) return entry
    try {
      this.#fullFolder ??= mkdtempSync(path.join(os.tmpdir(), "tool-tester-inspector-calls-"))
      writeFileSync(this.#fullFile(entry.id), JSON.stringify(entry))
      kept.full = `api/history/${entry.id}/full`
    } catch {
      // Nowhere to keep it: the cut entry is all there is.
    }
    return kept
  }

  #fullFile(id: number): string {
    return path.join(this.#fullFolder ?? os.tmpdir(), `${id}.json`)
  }

  /** Loads the project (again); the previous engine ends once the new one answers. */
  async #load(): Promise<{ generation: number; loadMs: number; error?: { code: string; message: string } }> {
    const generation = ++this.#generation
    const startedAt = performance.now()
    this.#loadStartedAt = Date.now()
    const previous = this.#project
    let error: { code: string; message: string } | undefined
    try {
      // Under either engine the tools live in an engine's process, never the inspector's: a tool
      // that exits, hangs or lets an error escape fails its call, and dev serves on. What they print
      // goes to dev's stderr, so that its stdout holds only its URL (or its --json line).
      this.#project = await openRemoteProject(this.#engineSelection(), {
        directory: this.#options.directory,
        global: this.#options.global ?? true,
        plugins: this.#options.plugins ?? [],
        console: TOOLS_CONSOLE,
        // A file whose import never finishes must not hold dev (and every later save) for ever.
        loadTimeoutMs: this.#options.loadTimeoutMs ?? 60_000,
        signal: this.#closing.signal,
      })
    } catch (thrown) {
      this.#project = undefined
      error = errorOf(thrown)
    }
    if (previous) {
      this.#replaced.add(previous)
      closeProject(previous)
    }
    this.#loadError = error
    const loadMs = Math.round(performance.now() - startedAt)
    return error ? { generation, loadMs, error } : { generation, loadMs }
  }

  /** Builds the page's view of the load and sends it; doctor's findings follow when they arrive. */
  async #show(loaded: {
    generation: number
    loadMs: number
    error?: { code: string; message: string }
  }): Promise<void> {
    const project = this.#project
    let view: ProjectView
    if (!project || loaded.error)
      view = failedView(
        this.#options.directory,
        loaded.error ?? { code: "ENGINE_FAILED", message: "the project is not loaded" },
        loaded,
      )
    else {
      try {
        view = await projectView(project, loaded)
      } catch (error) {
        view = failedView(this.#options.directory, errorOf(error), loaded)
      }
    }
    if (loaded.generation !== this.#generation) return
    this.#view = view
    this.#emit({ type: "project", view })
  }

  async #run(project: ToolProject, request: CallRequest, signal: AbortSignal): Promise<RunResult> {
    const { model } = request
    // A cancel ends the engine past this inspector's own grace, and says so (cancel()).
    followAbortsHere(signal)
    const options = {
      timeoutMs: this.#options.timeoutMs ?? 60_000,
      signal,
      ...(model === undefined
        ? {}
        : { model: modelSelection({ provider: model.provider, model: model.modelID }), modelInput: model.input }),
    }
    if (request.form === "raw") return callTool(project, { name: request.name, rawArguments: request.text }, options)
    return runTool(project, request.name, request.args, options)
  }

  /**
   * Sets the watcher on what opencode reads now. Returns the folders watched now that were not
   * before (a tools/ or .opencode folder made since): what was written into one before this watch
   * began was seen by no watcher.
   */
  #watch(): string[] {
    if (this.#options.watch === false || this.#closed) return []
    if (this.#project) {
      this.#modules = this.#project.modules ?? []
      this.#modulesOf = this.#project
    }
    const targets = this.#targets()
    // Watched anew on every load (a folder made or removed since, an editor's save that replaced a
    // file), but never stopped in between: a save made as this load ends is read by the next one,
    // and so is one made while it ran to a module it watches from now on (a helper a save just
    // imported, saved again after the engine read it). The first watch takes the first load's saves
    // so: no watch existed while it ran.
    if (this.#watcher) this.#watcher.retarget(targets, this.#loadStartedAt)
    else this.#watcher = watchProject(targets, (files) => void this.reload(files), this.#loadStartedAt)
    const watched = new Set([...targets.deep, ...targets.shallow].filter((folder) => existsSync(folder)))
    const before = this.#watchedFolders
    this.#watchedFolders = watched
    return before === undefined ? [] : [...watched].filter((folder) => !before.has(folder))
  }

  /** What opencode reads now, and the modules of the last load that ended (#modules). */
  #targets(): WatchTargets {
    return projectWatchTargets({
      directory: this.#options.directory,
      global: this.#options.global ?? true,
      configFiles: this.#project?.configFiles ?? [],
      loadedPlugins: this.#project?.plugins ?? [],
      modules: this.#modules,
      pluginSpecs: this.#options.plugins ?? [],
    })
  }

  /**
   * A call of the current load imported modules its load did not (an `import()` inside `execute`,
   * which the engine reports with the call's answer: ToolProject.modules grew): they are watched
   * from now on, as the load's are, the new watches started before the old ones stop. A module
   * saved after the call began (or its load, when the call ended before the load's modules were
   * watched: a save's re-run) is read by one more load: the call may have imported it before.
   */
  #watchNewModules(project: ToolProject, calledAt: number): void {
    if (project !== this.#project || !this.#watcher || this.#closed) return
    const modules = project.modules ?? []
    const known = new Set(this.#modules)
    if (modules.every((file) => known.has(file))) return
    const since = this.#modulesOf === project ? calledAt : this.#loadStartedAt
    this.#modules = modules
    this.#modulesOf = project
    this.#watcher.retarget(this.#targets(), since)
  }

  /** An engine for the next save, started once this load's work is done. */
  #prestart(): void {
    if (this.#selection && !this.#closed) prestartEngine(this.#selection, this.#options.directory, TOOLS_CONSOLE)
  }

  #engineSelection(): EngineSelection {
    if (!this.#selection) throw new Error("the inspector loads a project only after start() chose its engine")
    return this.#selection
  }

  /** doctor's findings for the current load, sent when they arrive (unless a newer load came first). */
  #diagnoseLater(): void {
    const diagnose = this.#options.diagnose
    const project = this.#project
    const generation = this.#generation
    if (!diagnose || !project || this.#loadError || this.#closed) return
    diagnose(project).then(
      (findings) => {
        if (generation !== this.#generation || !this.#view || this.#closed) return
        this.#view = withFindings(this.#view, aboutOffered(project, findings, this.#options.cwd), this.#options.cwd)
        this.#emit({ type: "project", view: this.#view })
      },
      () => undefined,
    )
  }

  #emit(event: InspectorEvent): void {
    for (const listener of this.#listeners) listener(event)
  }
}

function errorOf(error: unknown): { code: string; message: string } {
  if (ToolTesterError.isInstance(error)) return { code: error.code, message: error.message }
  return { code: "INTERNAL", message: error instanceof Error ? error.message : String(error) }
}
