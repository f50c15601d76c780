import os from "node:os"
import path from "node:path"
import { definedFields } from "./_defined-fields.ts"
import { described } from "./_described.ts"
import { folderProblem } from "./_folder-problem.ts"
import { isRecord } from "./_is-record.ts"
import { refuseUnknownOptions } from "./_known-options.ts"
import { changedBuiltins, restoreBuiltins } from "./_pristine.ts"
import { clientSource } from "./client/client-source.ts"
import {
  attachProjectClient,
  type ClientSource,
  createProjectClient,
  type ProjectClient,
} from "./client/project-client.ts"
import { defaultAgentProblem } from "./config/agent.ts"
import type { ConfigSource, OpencodeConfig } from "./config/opencode-config.ts"
import { configProblem, loadOpencodeConfig, mergeConfig } from "./config/opencode-config.ts"
import { pluginSpecs } from "./config/plugin-order.ts"
import { bunOnlyImport, NEEDS_BUN_ENGINE } from "./discovery/bun-only-import.ts"
import { type ConfigDirectory, configDirectories } from "./discovery/config-dirs.ts"
import { createImporter, importEvents, type ModuleImporter } from "./discovery/import-module.ts"
import { importsOpencode2, OPENCODE2_ADVICE } from "./discovery/opencode2.ts"
import { createPluginInput } from "./discovery/plugin-input.ts"
import { initializePluginModule } from "./discovery/plugin-module.ts"
import { isPathSpec, type PluginSpec, resolvePluginEntry } from "./discovery/plugin-spec.ts"
import { SCANNED_EXTENSIONS, scanFolder, TOOL_FOLDERS } from "./discovery/scan.ts"
import type { ToolDefinitionLike } from "./discovery/tool-exports.ts"
import { nearMisses, toolExports, unloadableExport } from "./discovery/tool-exports.ts"
import { findWorktree } from "./discovery/worktree.ts"
import { chooseEngine, libraryError, libraryNotice } from "./engine-client/choose-engine.ts"
import { libraryConsole } from "./engine-client/relayed-console.ts"
import { openRemoteProject } from "./engine-client/remote-project.ts"
import type { EngineConsole } from "./engine-client/spawn-engine.ts"
import type { Result } from "./errors.ts"
import { messageOfThrown, ToolTesterError } from "./errors.ts"
import { BUILTIN_TOOL_IDS } from "./pipeline/builtins.ts"
import { runConfigHooks } from "./pipeline/plugin-config-hooks.ts"
import { autoInstallChosen, autoInstallReaches } from "./runtime/auto-install.ts"
import { engineHere, inBun } from "./runtime/here.ts"
import type { Diagnostic, LoadedTool, LoadToolsOptions, ToolProject } from "./types.ts"

export type { Diagnostic, LoadedPlugin, LoadedTool, LoadToolsOptions, ToolProject } from "./types.ts"

/**
 * Discovers a project's custom tools as opencode 1.18.34 does: config folders in opencode's order,
 * `{tool,tools}/*.{js,ts}` in each, TypeScript loaded without a build step, every export shaped like
 * a tool, plugin `tool` hooks after them. A file that fails to import becomes a diagnostic.
 * Under the bun engine this happens in a Bun process of the project's own, kept for the calls
 * that follow; `closeProject()` ends it (it also ends with this process).
 * Run by Bun itself (`bun test`, `bun script.ts`), it imports the files in this process, so Bun's
 * mocks reach them; but where Bun's auto-install would fetch a missing import or plugin from the
 * registry (Bun started without `--no-install`, `--install` or `-i`, and no node_modules folder in
 * or above a folder the load imports from or resolves plugins from), it loads the project in a new
 * process of this Bun started with `--no-install`, as the bun engine: opencode's Bun never
 * auto-installs, and tool-tester downloads nothing unless asked.
 * Throws only when an option cannot be read (USAGE), `directory` does not exist, a config file
 * cannot be parsed, or the engine asked for cannot be found.
 */
export async function loadTools(options: LoadToolsOptions = {}): Promise<ToolProject> {
  checkLoadOptions(options)
  try {
    // In a test runner, what a bun engine's tools print goes through its console, as the node
    // engine's does, so that it is shown under the test (relayed-console.ts).
    return inLibraryWords(await openProject({ ...options, console: libraryConsole() }, libraryNoticeOnce))
  } catch (error) {
    throw libraryError(error)
  }
}

/** Diagnostics of the plugins the caller named: given with the `plugins` option, not the CLI's --plugin. */
function inLibraryWords(project: ToolProject): ToolProject {
  project.diagnostics = project.diagnostics.map((diagnostic) =>
    diagnostic.data?.["origin"] === "--plugin"
      ? {
          ...diagnostic,
          message: diagnostic.message.replace("(from --plugin)", "(from the plugins option)"),
          data: { ...diagnostic.data, origin: "plugins option" },
        }
      : diagnostic,
  )
  return project
}

/**
 * {@link loadTools} as tool-tester's own commands use it (dev's inspector): options their flags
 * already checked, and errors and notices that name those flags, which is what their users typed.
 */
export async function openProject(
  options: LoadToolsOptions & {
    /** Where a bun engine's stdout and stderr go (default "inherit"); "pipe" keeps them from the terminal. */
    console?: EngineConsole
  },
  onNotice: (notice: string) => void,
): Promise<ToolProject> {
  const directory = projectDirectory(options)
  const { engine: _engine, engineBinary: _engineBinary, ...remote } = options
  if (inBun) {
    if (!autoInstallWouldFetch(options, directory)) return loadProjectHere(options)
    return openRemoteProject(
      { name: "bun", location: { binary: process.execPath, source: "current" } },
      { ...remote, directory },
    )
  }
  const chosen = await chooseEngine({
    engine: options.engine,
    engineBinary: options.engineBinary,
    env: process.env,
    directory,
  })
  if (chosen.notice) onNotice(chosen.notice)
  if (chosen.selection.name === "node") return loadProjectHere(options)
  return openRemoteProject(chosen.selection, { ...remote, directory })
}

/** {@link loadTools} in this process, with the engine this process is. */
export async function loadProjectHere(
  options: LoadToolsOptions = {},
  internal: { clientSource?: ClientSource; skipFiles?: readonly string[] } = {},
): Promise<ToolProject> {
  const directory = projectDirectory(options)
  const setup = projectSetup(options, directory)
  if (!setup.success) throw setup.error
  const { worktree, env, directories, config, sources } = setup.value

  const importModule = createImporter()
  const project: ToolProject = {
    engine: engineHere(),
    directory,
    worktree,
    configDirectories: directories,
    config,
    configFiles: sources.map((source) => source.file).filter((file) => file !== "(config option)"),
    tools: [],
    plugins: [],
    diagnostics: [],
    files: [],
  }

  // opencode's order: the tool files of every config folder, then the plugins' tool hooks.
  await loadToolFiles(project, importModule, internal.skipFiles ?? [])
  const client = createProjectClient({
    directory,
    source: internal.clientSource ?? clientSource(options, directory, env),
  })
  attachProjectClient(project, client)
  const specs = pluginSpecs(sources, directories, options.plugins ?? [], directory)
  await loadPlugins(project, specs, importModule, client)

  if (config["plugins"] !== undefined) {
    project.diagnostics.push({
      code: "OPENCODE_2",
      severity: "warning",
      message: `the config has a "plugins" key, opencode 2's; opencode 1.x reads "plugin" and ignores "plugins", so those plugins never load; ${OPENCODE2_ADVICE}`,
      data: { key: "plugins" },
    })
  }
  project.diagnostics.push(...(await runConfigHooks(project)))
  const agentProblem = defaultAgentProblem(project.config)
  if (agentProblem !== undefined) {
    project.diagnostics.push({
      code: "CONFIG_INVALID",
      severity: "error",
      message: agentProblem,
      data: { key: "default_agent" },
    })
  }
  markOverrides(project)
  project.modules = importModule.modules?.() ?? []
  importEvents.onModules?.(project.modules, () => importModule.modules?.() ?? [])
  return project
}

// --- internal ---

/**
 * The `{tool,tools}/*.{js,ts}` files of every config folder, imported in opencode's order: each
 * export shaped like a tool becomes one, a file that fails to import a diagnostic.
 */
async function loadToolFiles(
  project: ToolProject,
  importModule: ModuleImporter,
  skipFiles: readonly string[],
): Promise<void> {
  for (const configDirectory of project.configDirectories) {
    for (const file of scanFolder(configDirectory.path, TOOL_FOLDERS, SCANNED_EXTENSIONS)) {
      // eval leaves out a file that ended or stalled the engine while it was imported (tasks/eval-tools-task.ts).
      if (skipFiles.includes(file)) continue
      const imported = await blamingImports(project, file, () => importModule(file))
      if (!imported.success) {
        project.diagnostics.push(diagnosticOf(imported.error, file))
        project.files.push({ file, ids: [] })
        continue
      }
      const tools = fileTools(file, imported.value)
      if (!tools.success) {
        project.diagnostics.push(diagnosticOf(tools.error, file))
        project.files.push({ file, ids: [] })
        continue
      }
      project.files.push({ file, ids: tools.value.map((tool) => tool.id), namespace: imported.value })
      project.tools.push(...tools.value)
      project.diagnostics.push(...exportWarnings(file, imported.value, tools.value.length))
    }
  }
}

/**
 * The tools of an imported file, read as opencode reads them while it builds its tool list: which
 * exports are tools, then each one's description. A read that throws (a Proxy's trap, a getter)
 * fails the whole list in opencode, as a file that does not import: here it fails the file, with
 * IMPORT_FAILED naming the export.
 */
function fileTools(file: string, namespace: Record<string, unknown>): Result<LoadedTool[]> {
  const exports = toolExports(file, namespace)
  if (!exports.success) return exports
  const tools: LoadedTool[] = []
  for (const entry of exports.value) {
    const description = descriptionOf(entry.definition)
    if (!description.success) {
      return { success: false, error: unloadableExport(file, entry.exportName, description.error) }
    }
    tools.push({
      id: entry.id,
      source: "file",
      file,
      export: entry.exportName,
      description: description.value,
      definition: entry.definition,
    })
  }
  return { success: true, value: tools }
}

/** A tool file's warnings: it offers nothing (NO_TOOLS), or an export opencode ignores (IGNORED_EXPORT). */
function exportWarnings(file: string, namespace: Record<string, unknown>, toolCount: number): Diagnostic[] {
  const warnings: Diagnostic[] = []
  const misses = nearMisses(namespace)
  if (toolCount === 0 && misses.length === 0) {
    warnings.push({
      code: "NO_TOOLS",
      severity: "warning",
      file,
      message: `${file}: ${noToolsReason(namespace)}; opencode imports the file and offers nothing from it: export a tool({ description, args, execute }), or move the file out of ${path.basename(path.dirname(file))}/`,
    })
  }
  for (const miss of misses) {
    warnings.push({
      code: "IGNORED_EXPORT",
      severity: "warning",
      file,
      message: `${file}: export ${miss.exportName} is ignored by opencode: it has no ${miss.missing.join(", ")}; a tool needs description, args and execute`,
      data: { export: miss.exportName, missing: miss.missing },
    })
  }
  return warnings
}

/**
 * The plugins, in opencode's order: each resolved, imported and initialised with the project's
 * input, its hooks kept and the tools of its `tool` hook added after the files' tools.
 */
async function loadPlugins(
  project: ToolProject,
  specs: readonly PluginSpec[],
  importModule: ModuleImporter,
  client: ProjectClient,
): Promise<void> {
  const { directory, worktree } = project
  const input = createPluginInput({ directory, worktree, client })
  for (const spec of specs) {
    const entry = resolvePluginEntry(spec, directory)
    if (!entry.success) {
      project.diagnostics.push(diagnosticOf(entry.error, undefined))
      continue
    }
    const imported = await blamingImports(project, entry.value, () => importModule(entry.value))
    if (!imported.success) {
      project.diagnostics.push(diagnosticOf(imported.error, entry.value))
      continue
    }
    const initialized = await blamingImports(project, entry.value, () =>
      initializePluginModule({
        file: entry.value,
        namespace: imported.value,
        fromPath: isPathSpec(spec.spec) || spec.origin.endsWith("folder"),
        input,
        client,
        pluginOptions: spec.options,
      }),
    )
    for (const error of initialized.errors) project.diagnostics.push(diagnosticOf(error, entry.value))
    for (const plugin of initialized.plugins) {
      // The hooks it returned, and its `tool` hook's entries, are read here once: a Proxy whose
      // traps throw (or a getter) leaves the plugin out with that error, never INTERNAL.
      const read = readHooks(plugin.hooks)
      if (!read.success) {
        project.diagnostics.push({
          code: "PLUGIN_LOAD_FAILED",
          severity: "error",
          file: entry.value,
          message: `${entry.value}: reading the hooks plugin function ${plugin.exportName} returned threw: ${read.error}; return a plain object of hooks`,
          data: { file: entry.value, plugin: spec.spec },
        })
        continue
      }
      project.plugins.push({
        spec: spec.spec,
        file: entry.value,
        exportName: plugin.exportName,
        hookNames: read.value.names,
        hooks: plugin.hooks,
      })
      for (const [id, definition] of read.value.tools) {
        const description = descriptionOf(definition as ToolDefinitionLike)
        if (!description.success) {
          project.diagnostics.push({
            code: "PLUGIN_LOAD_FAILED",
            severity: "error",
            file: entry.value,
            message: `${entry.value}: opencode cannot load the tool ${id} of plugin function ${plugin.exportName}: ${description.error}; opencode fails its whole tool list on it ("Unexpected server error"), so the model is offered no tool at all: make description a plain string`,
            data: { file: entry.value, plugin: spec.spec, tool: id },
          })
          continue
        }
        project.tools.push({
          id,
          source: "plugin",
          file: entry.value,
          plugin: spec.spec,
          description: description.value,
          definition: definition as ToolDefinitionLike,
        })
      }
    }
  }
}

/**
 * Runs `load` (a file's import, a plugin's init) and blames the file for what it changed of the
 * engine's built-ins: put back, and a TOOL_TAMPERED error on the file, which its tools' calls then
 * report (pipeline/execute-call.ts) instead of whichever tool runs next. Changes made before (by
 * the code that loads the project, in the library) are left alone: they are not the file's.
 */
async function blamingImports<T>(project: ToolProject, file: string, load: () => Promise<T>): Promise<T> {
  if (changedBuiltins().length > 0) return load()
  try {
    return await load()
  } finally {
    const changed = restoreBuiltins()
    if (
      changed.length > 0 &&
      !project.diagnostics.some((found) => found.code === "TOOL_TAMPERED" && found.file === file)
    )
      project.diagnostics.push({
        code: "TOOL_TAMPERED",
        severity: "error",
        file,
        message: `${file}: changed the engine's built-ins while it was loaded (${changed.join(", ")}); tools run in opencode's own process, so this breaks opencode itself: use functions of your own instead`,
        data: { changed },
      })
  }
}

type ProjectSetup = {
  worktree: string
  env: NodeJS.ProcessEnv
  directories: ConfigDirectory[]
  config: OpencodeConfig
  sources: ConfigSource[]
}

/** The config folders and the merged config, before anything is imported. */
function projectSetup(options: LoadToolsOptions, directory: string): Result<ProjectSetup> {
  const worktree = findWorktree(directory)
  const env = options.env ?? process.env
  const home = options.home ?? os.homedir()
  const directories = configDirectories({ directory, worktree, env, home, global: options.global ?? true })
  const loadedConfig = loadOpencodeConfig({ directory, worktree, directories })
  if (!loadedConfig.success) return loadedConfig
  const { sources } = loadedConfig.value
  let config = loadedConfig.value.config
  if (options.config) {
    const problem = configProblem(options.config)
    if (problem) {
      const data = { file: "(config option)", ...problem.data }
      return {
        success: false,
        error: new ToolTesterError("CONFIG_INVALID", `the config given: ${problem.message}`, { data }),
      }
    }
    config = mergeConfig(config, options.config)
    sources.push({
      file: "(config option)",
      plugins: Array.isArray(options.config.plugin) ? options.config.plugin : [],
    })
  }
  return { success: true, value: { worktree, env, directories, config, sources } }
}

/**
 * In Bun: whether loading here could make Bun fetch a package. Auto-install is at its default
 * (not chosen on the command line) and reaches one of the folders the load imports from (each
 * tool file's, each path plugin's entry's) or resolves npm plugins from (the project directory,
 * asked before anything is resolved: resolving one there is what would fetch it).
 */
function autoInstallWouldFetch(options: LoadToolsOptions, directory: string): boolean {
  if (autoInstallChosen(process.execArgv)) return false
  const setup = projectSetup(options, directory)
  // loadProjectHere throws the same error.
  if (!setup.success) return false
  const { directories, sources } = setup.value
  const folders = new Set<string>()
  for (const configDirectory of directories) {
    for (const file of scanFolder(configDirectory.path, TOOL_FOLDERS, SCANNED_EXTENSIONS))
      folders.add(path.dirname(file))
  }
  for (const spec of pluginSpecs(sources, directories, options.plugins ?? [], directory)) {
    if (!isPathSpec(spec.spec) && !spec.spec.startsWith("file:")) {
      folders.add(directory)
      continue
    }
    const entry = resolvePluginEntry(spec, directory)
    if (entry.success) folders.add(path.dirname(entry.value))
  }
  return [...folders].some(autoInstallReaches)
}

/**
 * Refuses options loadTools() cannot read (USAGE naming the option), before anything is loaded: a
 * path given as a directory string (`loadTools("/project")`) would otherwise load the working
 * directory, and a plugins string be read one character at a time.
 */
/** Every option loadTools() takes: `dir` for `directory` would load the working folder instead. */
const LOAD_OPTIONS: Record<keyof LoadToolsOptions, true> = {
  directory: true,
  global: true,
  plugins: true,
  env: true,
  home: true,
  config: true,
  engine: true,
  engineBinary: true,
  client: true,
  onServerLog: true,
}

function checkLoadOptions(options: LoadToolsOptions): void {
  const refuse = (option: string, message: string) => {
    throw new ToolTesterError("USAGE", message, { data: { option } })
  }
  if (!isRecord(options))
    refuse(
      "options",
      `loadTools() takes an options object, such as { directory, global: false }, not ${described(options)}`,
    )
  refuseUnknownOptions("loadTools()", options, LOAD_OPTIONS)
  const { directory, plugins, global, engine, engineBinary, env, home, config, client, onServerLog } = options
  if ((directory as unknown) instanceof URL)
    refuse("directory", "directory is a URL: pass a path, fileURLToPath(url) (from node:url)")
  if (directory !== undefined && typeof directory !== "string")
    refuse("directory", `directory must be the project folder's path, a string, not ${described(directory)}`)
  if (plugins !== undefined && !Array.isArray(plugins))
    refuse("plugins", `plugins must be an array of plugin specs, such as ["./my-plugin"], not ${described(plugins)}`)
  for (const plugin of plugins ?? []) {
    const pair = Array.isArray(plugin) && plugin.length === 2 && typeof plugin[0] === "string" && isRecord(plugin[1])
    if (typeof plugin !== "string" && !pair)
      refuse("plugins", `each entry of plugins must be a spec string or [spec, options], not ${described(plugin)}`)
  }
  if (global !== undefined && typeof global !== "boolean")
    refuse("global", `global must be true or false, not ${described(global)}`)
  if (engine !== undefined && typeof engine !== "string")
    refuse("engine", `engine must be "auto", "bun" or "node", not ${described(engine)}`)
  if (engineBinary !== undefined && typeof engineBinary !== "string")
    refuse(
      "engineBinary",
      `engineBinary must be the path of an opencode or bun executable, not ${described(engineBinary)}`,
    )
  if (env !== undefined) {
    const example = "such as { ...process.env, XDG_CONFIG_HOME: folder }"
    if (!isRecord(env))
      refuse("env", `env must be an environment, an object of strings ${example}, not ${described(env)}`)
    const wrong = Object.entries(env).find(([, value]) => value !== undefined && typeof value !== "string")
    if (wrong)
      refuse(
        "env",
        `env must be an environment, an object of strings ${example}: ${wrong[0]} is ${described(wrong[1])}`,
      )
  }
  if (home !== undefined && typeof home !== "string")
    refuse("home", `home must be the path of a home folder, a string, not ${described(home)}`)
  if (config !== undefined && !isRecord(config))
    refuse(
      "config",
      `config must be an object as opencode.json holds, such as { plugin: [] }, not ${described(config)}`,
    )
  if (client !== undefined && !isRecord(client))
    refuse(
      "client",
      `client must be an object of namespaces holding methods, such as { app: { log: async () => ({ data: true }) } }, not ${described(client)}`,
    )
  if (onServerLog !== undefined && typeof onServerLog !== "function")
    refuse("onServerLog", `onServerLog must be a function told each line, not ${described(onServerLog)}`)
}

function projectDirectory(options: LoadToolsOptions): string {
  const directory = path.resolve(options.directory ?? process.cwd())
  const problem = folderProblem(directory)
  if (problem !== undefined) {
    throw new ToolTesterError("PATH_NOT_FOUND", `${directory} ${problem}; pass the project directory`, {
      data: { directory },
    })
  }
  return directory
}

/** A plugin's hook names and the entries of its `tool` hook, or what reading them threw. */
function readHooks(
  hooks: Record<string, unknown>,
): Result<{ names: string[]; tools: Array<[string, unknown]> }, string> {
  try {
    const tools = hooks["tool"]
    return {
      success: true,
      value: {
        names: Object.keys(hooks),
        tools: typeof tools === "object" && tools !== null ? Object.entries(tools) : [],
      },
    }
  } catch (error) {
    return { success: false, error: messageOfThrown(error) }
  }
}

/**
 * A tool's description, "" when it is not a string. opencode reads it while it builds its tool
 * list; a getter or a Proxy's trap that throws then fails that list: the error says what threw.
 */
function descriptionOf(definition: ToolDefinitionLike | undefined): Result<string, string> {
  let description: unknown
  try {
    description = (definition as { description?: unknown } | undefined)?.description
  } catch (error) {
    return { success: false, error: `reading its description threw: ${messageOfThrown(error)}` }
  }
  return { success: true, value: typeof description === "string" ? description : "" }
}

const noticed = new Set<string>()

/** The library says why it fell back to node once per process, on stderr. */
/** A notice of the engine chosen (no Bun found, ...), in the library's words, on stderr once per process. */
export function libraryNoticeOnce(notice: string): void {
  noticeOnce(libraryNotice(notice))
}

function noticeOnce(notice: string): void {
  if (noticed.has(notice)) return
  noticed.add(notice)
  process.stderr.write(`${notice}\n`)
}

function noToolsReason(namespace: Record<string, unknown>): string {
  const fallback = namespace["default"]
  if (typeof fallback === "function") return "its default export is a function, not a tool object"
  if ("default" in namespace)
    return `its default export is ${fallback === null ? "null" : typeof fallback}, not a tool object`
  return Object.keys(namespace).length === 0 ? "it exports nothing" : "none of its exports is a tool"
}

function markOverrides(project: ToolProject): void {
  const latest = new Map<string, LoadedTool>()
  for (const tool of project.tools) {
    const earlier = latest.get(tool.id)
    if (earlier) {
      tool.overrides = earlier.file
      earlier.overriddenBy = tool.file
    } else if (BUILTIN_TOOL_IDS.includes(tool.id)) {
      tool.overrides = "builtin"
    }
    latest.set(tool.id, tool)
  }
}

function diagnosticOf(error: ToolTesterError, file: string | undefined): Diagnostic {
  if (error.code === "IMPORT_FAILED" && importsOpencode2(error.message)) {
    return {
      code: "OPENCODE_2",
      severity: "error",
      message: `${file ?? "a file"}: it imports @opencode/plugin, opencode 2's plugin package; ${OPENCODE2_ADVICE}`,
      ...definedFields({ file }),
      data: { ...error.data },
    }
  }
  // Under Node, a file only Bun loads is a warning: opencode (Bun) loads it.
  const bunOnly = error.code === "IMPORT_FAILED" && !inBun ? bunOnlyImport(error.message, file) : undefined
  if (bunOnly !== undefined) {
    return {
      code: error.code,
      severity: "warning",
      message: `${error.message}; ${bunOnly}: it ${NEEDS_BUN_ENGINE}`,
      ...definedFields({ file }),
      data: { ...error.data, needsBunEngine: true },
    }
  }
  const diagnostic: Diagnostic = { code: error.code, severity: "error", message: error.message }
  if (file !== undefined) diagnostic.file = file
  if (error.data !== undefined) diagnostic.data = error.data
  return diagnostic
}
