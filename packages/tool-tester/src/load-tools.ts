import { existsSync, statSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import type { OpencodeConfig } from "./config/opencode-config.ts"
import { loadOpencodeConfig, mergeConfig } from "./config/opencode-config.ts"
import type { ConfigDirectory, Environment } from "./discovery/config-dirs.ts"
import { configDirectories } from "./discovery/config-dirs.ts"
import { createImporter } from "./discovery/import-module.ts"
import { createPluginInput } from "./discovery/plugin-input.ts"
import type { PluginHooks } from "./discovery/plugin-module.ts"
import { initializePluginModule } from "./discovery/plugin-module.ts"
import { pluginSpecs } from "./discovery/plugin-order.ts"
import { isPathSpec, resolvePluginEntry } from "./discovery/plugin-spec.ts"
import { SCANNED_EXTENSIONS, scanFolder, TOOL_FOLDERS } from "./discovery/scan.ts"
import type { ToolDefinitionLike } from "./discovery/tool-exports.ts"
import { nearMisses, toolExports } from "./discovery/tool-exports.ts"
import { findWorktree } from "./discovery/worktree.ts"
import type { ToolTesterErrorCode } from "./errors.ts"
import { ToolTesterError } from "./errors.ts"
import { BUILTIN_TOOL_IDS } from "./pipeline/builtins.ts"

export type LoadToolsOptions = {
  /** The project directory opencode runs in. Default: the working directory. */
  directory?: string
  /** Include user-level config folders (global config dir, `~/.opencode`) and the global opencode.json. Default true. */
  global?: boolean
  /** Extra plugin specs loaded after the configured ones: a module path, a package folder or a package name. */
  plugins?: Array<string | [string, Record<string, unknown>]>
  /** Environment read for XDG_CONFIG_HOME, OPENCODE_CONFIG_DIR, OPENCODE_DISABLE_PROJECT_CONFIG. Default process.env. */
  env?: Environment
  /** Home directory. Default os.homedir(). */
  home?: string
  /** Config merged over every opencode.json, like opencode's `OPENCODE_CONFIG_CONTENT`. */
  config?: OpencodeConfig
}

/** A custom tool opencode would register: from a tool file or a plugin's `tool` hook. */
export type LoadedTool = {
  id: string
  source: "file" | "plugin"
  /** The tool file, or the plugin module that registered it. */
  file: string
  /** The export name for a file tool (`default` for the default export). */
  export?: string
  /** The plugin spec for a plugin tool. */
  plugin?: string
  /** What this tool replaces: `builtin` or the file of an earlier tool with the same id. */
  overrides?: string
  /** Set when a later tool with the same id replaces this one: opencode keeps only the last. */
  overriddenBy?: string
  definition: ToolDefinitionLike
}

/** Something that will not work as the author expects; loading goes on. */
export type Diagnostic = {
  code: ToolTesterErrorCode | "IGNORED_EXPORT" | "NO_TOOLS"
  severity: "error" | "warning"
  message: string
  file?: string
  data?: Record<string, unknown>
}

export type LoadedPlugin = { spec: string; file: string; exportName: string; hooks: PluginHooks }

/** Everything opencode would know about a project's custom tools. Pass it to the other functions. */
export type ToolProject = {
  directory: string
  worktree: string
  configDirectories: ConfigDirectory[]
  config: OpencodeConfig
  configFiles: string[]
  /** Custom tools in registry order (files folder by folder, then plugin tools), duplicates kept. */
  tools: LoadedTool[]
  plugins: LoadedPlugin[]
  diagnostics: Diagnostic[]
  /** Tool files scanned, with the ids they produced (empty when none), for doctor. */
  files: Array<{ file: string; ids: string[]; namespace?: Record<string, unknown> }>
}

/**
 * Discovers a project's custom tools as opencode 1.18.34 does: config folders in opencode's order,
 * `{tool,tools}/*.{js,ts}` in each, TypeScript loaded without a build step, every export shaped like
 * a tool, plugin `tool` hooks after them. A file that fails to import becomes a diagnostic.
 * Throws only when `directory` does not exist or a config file cannot be parsed.
 */
export async function loadTools(options: LoadToolsOptions = {}): Promise<ToolProject> {
  const directory = path.resolve(options.directory ?? process.cwd())
  if (!existsSync(directory) || !statSync(directory).isDirectory()) {
    throw new ToolTesterError("PATH_NOT_FOUND", `${directory} is not a folder; pass the project directory`, {
      data: { directory },
    })
  }
  const worktree = findWorktree(directory)
  const env = options.env ?? process.env
  const home = options.home ?? os.homedir()
  const directories = configDirectories({ directory, worktree, env, home, global: options.global ?? true })
  const loadedConfig = loadOpencodeConfig({ directory, worktree, directories })
  if (!loadedConfig.success) throw loadedConfig.error
  const { sources } = loadedConfig.value
  let config = loadedConfig.value.config
  if (options.config) {
    config = mergeConfig(config, options.config)
    sources.push({
      file: "(config option)",
      plugins: Array.isArray(options.config.plugin) ? options.config.plugin : [],
    })
  }

  const importModule = createImporter()
  const project: ToolProject = {
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

  for (const configDirectory of directories) {
    for (const file of scanFolder(configDirectory.path, TOOL_FOLDERS, SCANNED_EXTENSIONS)) {
      const imported = await importModule(file)
      if (!imported.success) {
        project.diagnostics.push(diagnosticOf(imported.error, file))
        project.files.push({ file, ids: [] })
        continue
      }
      const exports = toolExports(file, imported.value)
      project.files.push({ file, ids: exports.map((entry) => entry.id), namespace: imported.value })
      for (const entry of exports) {
        project.tools.push({
          id: entry.id,
          source: "file",
          file,
          export: entry.exportName,
          definition: entry.definition,
        })
      }
      const misses = nearMisses(imported.value)
      if (exports.length === 0 && misses.length === 0) {
        project.diagnostics.push({
          code: "NO_TOOLS",
          severity: "warning",
          file,
          message: `${file}: ${noToolsReason(imported.value)}; opencode imports the file and offers nothing from it: export a tool({ description, args, execute }), or move the file out of ${path.basename(path.dirname(file))}/`,
        })
      }
      for (const miss of misses) {
        project.diagnostics.push({
          code: "IGNORED_EXPORT",
          severity: "warning",
          file,
          message: `${file}: export ${miss.exportName} is ignored by opencode: it has no ${miss.missing.join(", ")}; a tool needs description, args and execute`,
          data: { export: miss.exportName, missing: miss.missing },
        })
      }
    }
  }

  const input = createPluginInput({ directory, worktree })
  for (const spec of pluginSpecs(sources, directories, options.plugins ?? [], directory)) {
    const entry = resolvePluginEntry(spec, directory)
    if (!entry.success) {
      project.diagnostics.push(diagnosticOf(entry.error, undefined))
      continue
    }
    const imported = await importModule(entry.value)
    if (!imported.success) {
      project.diagnostics.push(diagnosticOf(imported.error, entry.value))
      continue
    }
    const initialized = await initializePluginModule({
      file: entry.value,
      namespace: imported.value,
      fromPath: isPathSpec(spec.spec) || spec.origin.endsWith("folder"),
      input,
      pluginOptions: spec.options,
    })
    for (const error of initialized.errors) project.diagnostics.push(diagnosticOf(error, entry.value))
    for (const plugin of initialized.plugins) {
      project.plugins.push({ spec: spec.spec, file: entry.value, exportName: plugin.exportName, hooks: plugin.hooks })
      const tools = plugin.hooks.tool
      if (typeof tools !== "object" || tools === null) continue
      for (const [id, definition] of Object.entries(tools)) {
        project.tools.push({
          id,
          source: "plugin",
          file: entry.value,
          plugin: spec.spec,
          definition: definition as ToolDefinitionLike,
        })
      }
    }
  }

  markOverrides(project)
  return project
}

// --- internal ---

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
  const diagnostic: Diagnostic = { code: error.code, severity: "error", message: error.message }
  if (file !== undefined) diagnostic.file = file
  if (error.data !== undefined) diagnostic.data = error.data
  return diagnostic
}
