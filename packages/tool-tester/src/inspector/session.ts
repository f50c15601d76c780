// One inspected project over time: loaded, shown, called, and loaded again on every save, with the
// last call re-run so the page shows what the edit changed. Everything the page sees arrives as
// an event; the HTTP layer only forwards them.
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { statOf } from "../_file-stats.ts"
import os from "node:os"
import path from "node:path"
import { configDirectories } from "../discovery/config-dirs.ts"
import { findWorktree } from "../discovery/worktree.ts"
import type { Finding } from "../doctor/finding.ts"
import type { EngineSelection } from "../engine-client/choose-engine.ts"
import type { EngineChoice } from "../runtime/here.ts"
import { chooseEngine } from "../engine-client/choose-engine.ts"
import { discardPrestartedEngine, openRemoteProject, prestartEngine } from "../engine-client/remote-project.ts"
import { ToolTesterError } from "../errors.ts"
import { callTool, closeProject, runTool } from "../run-tool.ts"
import { defaultDataDirectory } from "../pipeline/data-directory.ts"
import type { RunResult, ToolProject } from "../types.ts"
import { boundValue, ENTRY_BUDGET } from "./bounded.ts"
import type { ProjectView } from "./project-view.ts"
import { failedView, noToolsReason, projectView, withFindings } from "./project-view.ts"
import { watchProject, watchTargets } from "./watch-project.ts"

export type InspectorOptions = {
  directory: string
  /** False leaves out the user-level config folders (--no-global). */
  global?: boolean
  plugins?: string[]
  engine?: EngineChoice
  engineBinary?: string
  /** Paths in findings are relative to it. */
  cwd: string
  /** How long one call may run. Default 60 s. */
  timeoutMs?: number
  /**
   * doctor's findings for the project. The CLI runs doctor in an engine of its own (under the bun
   * engine the tools live in Bun, where doctor must look at them). Default: none.
   */
  diagnose?: (project: ToolProject) => Promise<Finding[]>
  /** Reload on save. Default true. */
  watch?: boolean
}

/** A call as the page asks for it: parsed arguments, or the raw text a model sent (through opencode's repair). */
export type CallRequest = { name: string } & ({ form: "args"; args: unknown } | { form: "raw"; text: string })

export type HistoryEntry = {
  id: number
  at: string
  /** What made the call: the page, a replay of an earlier one, or a save. */
  trigger: "run" | "replay" | "reload"
  request: CallRequest
  /** The load it ran in (ProjectView.generation). */
  generation: number
  engine: ProjectView["engine"]
  result?: RunResult
  /** Why there is no result: the project did not load, or the engine failed. */
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
const TOOLS_CONSOLE = "stderr"

/** History kept for replay; older calls are dropped. */
const HISTORY_LIMIT = 100

/** How a call ends when its engine was ended under it (closeProject): what a reload does to it. */
const ENGINE_ENDED = new Set<string>(["TOOL_EXITED", "ENGINE_FAILED", "CHANNEL_CLOSED"])

export class InspectorSession {
  readonly #options: InspectorOptions
  #project: ToolProject | undefined
  #view: ProjectView | undefined
  #loadError: { code: string; message: string } | undefined
  #generation = 0
  #history: HistoryEntry[] = []
  #nextId = 1
  #lastRequest: CallRequest | undefined
  #listeners = new Set<(event: InspectorEvent) => void>()
  #stopWatching: (() => void) | undefined
  #loading: Promise<void> | undefined
  #again: string[] | undefined
  #closed = false
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

  subscribe(listener: (event: InspectorEvent) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /** Runs a call and records it; the result is also sent as an event. */
  async call(request: CallRequest, trigger: HistoryEntry["trigger"] = "run"): Promise<HistoryEntry> {
    if (trigger !== "reload") this.#lastRequest = request
    const entry: HistoryEntry = {
      id: this.#nextId++,
      at: new Date().toISOString(),
      trigger,
      request,
      generation: this.#generation,
      engine: this.#project?.engine ?? this.#view?.engine,
    }
    const project = this.#project
    // A tool file that fails to import leaves opencode with no tool to call: nothing runs.
    const noTools = project && noToolsReason(project)
    if (!project) entry.error = this.#loadError ?? { code: "ENGINE_FAILED", message: "the project is not loaded" }
    else if (noTools) entry.error = noTools
    else {
      try {
        entry.result = await this.#run(project, request)
      } catch (error) {
        entry.error = errorOf(error)
      }
      // A save reloaded the project while the call ran and ended its engine: the engine's end is
      // the inspector's doing, not the tool's (not an exit, nor running out of memory).
      const code = entry.error?.code ?? entry.result?.error?.code
      if (this.#replaced.has(project) && code !== undefined && ENGINE_ENDED.has(code)) {
        delete entry.result
        entry.error = {
          code: "INTERRUPTED",
          message: `stopped: a save reloaded the project while ${request.name} ran, which ended the engine it ran in (the reload runs the last call again, on the new code)`,
        }
      }
    }
    const kept = this.#bounded(entry)
    this.#history.push(kept)
    if (this.#history.length > HISTORY_LIMIT) {
      const dropped = this.#history.shift()
      if (dropped?.full !== undefined) rmSync(this.#fullFile(dropped.id), { force: true })
    }
    this.#emit({ type: "call", entry: kept })
    return kept
  }

  /** Runs an earlier call again, as it was made (from its whole text, when the history keeps it cut). */
  replay(id: number): Promise<HistoryEntry> | undefined {
    const entry = this.entry(id)
    if (!entry) return undefined
    const whole = entry.full === undefined ? entry : (JSON.parse(this.fullEntry(id) ?? "null") as HistoryEntry | null)
    return whole ? this.call(whole.request, "replay") : undefined
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
    this.#loading = (async () => {
      const loaded = await this.#load()
      // The call first: its result is what the author waits for; the tool list follows.
      const last = this.#lastRequest
      await Promise.all([this.#show(loaded), last && !this.#closed ? this.call(last, "reload") : undefined])
      this.#prestart()
      // A tools/ or plugins/ folder made since the last load is watched from now on.
      this.#watch()
      // doctor loads the project once more, in an engine of its own: only once the result is out.
      this.#diagnoseLater()
    })()
    try {
      await this.#loading
    } finally {
      this.#loading = undefined
    }
    const again = this.#again
    this.#again = undefined
    if (again) await this.reload(again)
  }

  async close(): Promise<void> {
    this.#closed = true
    if (this.#fullFolder !== undefined) rmSync(this.#fullFolder, { recursive: true, force: true })
    this.#stopWatching?.()
    this.#listeners.clear()
    await this.#loading?.catch(() => undefined)
    if (this.#project) closeProject(this.#project)
    this.#project = undefined
    if (this.#selection) discardPrestartedEngine(this.#selection, this.#options.directory, TOOLS_CONSOLE)
  }

  // --- internal ---

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

  async #run(project: ToolProject, request: CallRequest): Promise<RunResult> {
    const options = { timeoutMs: this.#options.timeoutMs ?? 60_000 }
    if (request.form === "raw") return callTool(project, { name: request.name, rawArguments: request.text }, options)
    return runTool(project, request.name, request.args, options)
  }

  /** (Re)starts the watcher on what opencode reads now. */
  #watch(): void {
    if (this.#options.watch === false || this.#closed) return
    this.#stopWatching?.()
    const directory = this.#options.directory
    const folders = configDirectories({
      directory,
      worktree: findWorktree(directory),
      global: this.#options.global ?? true,
    })
    // The plugins loaded by path, the --plugin ones included: those that failed to import too
    // (by their spec), so that the save that fixes one reloads.
    const pluginFiles = [
      ...(this.#project?.plugins.map((plugin) => plugin.file) ?? []),
      ...(this.#options.plugins ?? []).filter((spec) => path.isAbsolute(spec)),
    ]
    this.#stopWatching = watchProject(
      watchTargets(
        { directory, configDirectories: folders, configFiles: this.#project?.configFiles ?? [] },
        pluginFiles,
      ),
      (files) => void this.reload(files),
    )
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
        this.#view = withFindings(this.#view, findings, this.#options.cwd)
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
