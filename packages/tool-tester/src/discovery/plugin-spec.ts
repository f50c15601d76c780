import { existsSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { statOf } from "../_file-stats.ts"
import { shellWord } from "../_shell-quote.ts"
import { addDependencyCommand } from "../package-manager.ts"
import { sourceFileProblem } from "./_source-file.ts"
import type { Result } from "../errors.ts"
import { ToolTesterError } from "../errors.ts"

/** A `"plugin"` config entry, a `--plugin` value, or a plugin file found in a config folder. */
export type PluginSpec = {
  /** As written by the user. */
  spec: string
  /** The second element of a `["spec", {...}]` tuple. */
  options: Record<string, unknown> | undefined
  /** The folder relative path specs resolve against (the config file's folder). */
  base: string
  /** Where it came from, for messages: a config file, a plugin folder, or "--plugin". */
  origin: string
}

/**
 * Path specs start with `file://`, `.` or `/`; anything else is an npm package spec
 * (docs/opencode-contract.md#plugin-specs).
 */
export function isPathSpec(spec: string): boolean {
  return spec.startsWith("file://") || spec.startsWith(".") || path.isAbsolute(spec)
}

/**
 * The module file opencode would import for a plugin spec. A folder with package.json uses
 * `exports["./server"]` (string, or its `import`/`default`), else `main`, else `module`, else the
 * folder's index file (docs/opencode-contract.md#plugin-entries; `exports["."]` is never read, and
 * a package with none of these is skipped by opencode: returned as an error saying so). A folder
 * without package.json uses its index file. npm specs stand for the copy opencode would download
 * (tool-tester never downloads): the package installed in the project, or in its `.opencode`
 * folder, where the kit installs everything (installedPlugin); an npm-style `file:<folder>` spec is
 * the folder, relative to the project directory (npm links it there).
 */
export function resolvePluginEntry(plugin: PluginSpec, projectDirectory: string): Result<string> {
  if (isPathSpec(plugin.spec)) {
    const target = plugin.spec.startsWith("file://")
      ? fileURLToPath(plugin.spec)
      : path.resolve(plugin.base, plugin.spec)
    if (!existsSync(target))
      // The spec is named first: the path again only when it says more (a relative spec resolved).
      return failure(
        plugin,
        `${target === plugin.spec ? "no such file or folder" : `${target} does not exist`}; fix the path`,
      )
    return statOf(target).isDirectory() ? folderEntry(plugin, target) : { success: true, value: target }
  }
  if (plugin.spec.startsWith("file:")) {
    const folder = path.resolve(projectDirectory, plugin.spec.slice("file:".length))
    if (!existsSync(folder) || !statOf(folder).isDirectory())
      return failure(
        plugin,
        `${folder} is not a folder (a file: spec is resolved against the project directory, ${projectDirectory}); opencode fails to install it: fix the path`,
      )
    return folderEntry(plugin, folder)
  }
  const name = packageName(plugin.spec)
  const folder = installedPlugin(name, projectDirectory)
  // `extra.ts` beside the config names the npm package extra.ts, for opencode too: a path needs ./
  const beside = path.resolve(plugin.base, plugin.spec)
  if (folder === undefined && existsSync(beside))
    return failure(
      plugin,
      `names the npm package ${name}, which is not installed, but ${beside} is a ${statOf(beside).isDirectory() ? "folder" : "file"}: a path starts with ./, ../ or /, so write ./${plugin.spec}`,
    )
  if (folder === undefined)
    return failure(
      plugin,
      `package ${name} is not installed in ${projectDirectory}; opencode would install ${plugin.spec === name ? `${name}@latest` : plugin.spec} from npm, which tool-tester never does: ${pluginInstallAdvice(plugin.spec, projectDirectory)}`,
    )
  return folderEntry(plugin, folder)
}

/**
 * The folder of an npm plugin installed for the project: resolved from the project folder as Node
 * resolves it (its node_modules and those above), else in `<project>/.opencode/node_modules`, where
 * `npm install --prefix .opencode NAME` puts it.
 */
export function installedPlugin(name: string, projectDirectory: string): string | undefined {
  const fromProject = resolvePackageFolder(name, projectDirectory) ?? findPackageFolder(projectDirectory, name)
  if (fromProject !== undefined) return fromProject
  const candidate = path.join(projectDirectory, ".opencode", "node_modules", name)
  return existsSync(path.join(candidate, "package.json")) ? candidate : undefined
}

/**
 * The command that installs an npm plugin where tool-tester finds it: into the project's `.opencode`
 * folder (the kit's layout, beside the tools' own packages; npm creates the folder when there is
 * none), run from the project folder, with the package manager that installed that folder. The
 * command docs/publishing-a-plugin.md gives too.
 */
export function pluginInstallAdvice(spec: string, projectDirectory: string): string {
  // The spec as configured, so a pinned version is the one installed; quoted, since a range (^1.2) is not a plain word in every shell.
  const command = addDependencyCommand(path.join(projectDirectory, ".opencode"), ".opencode", shellWord(spec))
  return `to test it, run ${command} from the project folder ${projectDirectory}`
}

// --- internal ---

/** The index files a folder import finds, in the order Bun tries them. */
const INDEX_EXTENSIONS = [".ts", ".tsx", ".js", ".mjs", ".cjs"]

function folderEntry(plugin: PluginSpec, folder: string): Result<string> {
  const manifestFile = path.join(folder, "package.json")
  if (!existsSync(manifestFile)) {
    const index = indexFile(folder)
    if (index) return { success: true, value: index }
    return failure(plugin, `${folder} has no package.json and no index.{ts,tsx,js,mjs,cjs}; add an entry file`)
  }
  const unreadable = sourceFileProblem(manifestFile)
  if (unreadable !== undefined) return failure(plugin, `${manifestFile} ${unreadable}: make it the package's manifest`)
  const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as {
    main?: unknown
    module?: unknown
    exports?: unknown
  }
  const server = serverExport(manifest.exports)
  const main = typeof manifest.main === "string" ? manifest.main : undefined
  const entry = server ?? main ?? (typeof manifest.module === "string" ? manifest.module : undefined)
  if (!entry) {
    const index = indexFile(folder)
    if (index) return { success: true, value: index }
    return failure(
      plugin,
      `${manifestFile} has no "main", "module" or exports["./server"], and ${folder} has no index.{ts,tsx,js,mjs,cjs}: opencode finds no entry and skips the package silently (exports["."] is not read): add "main"`,
    )
  }
  const file = path.resolve(folder, entry)
  if (!existsSync(file))
    return failure(plugin, `${file} (the entry of ${manifestFile}) does not exist; build the package`)
  return { success: true, value: file }
}

function indexFile(folder: string): string | undefined {
  for (const extension of INDEX_EXTENSIONS) {
    const index = path.join(folder, `index${extension}`)
    if (existsSync(index)) return index
  }
  return undefined
}

function serverExport(exports: unknown): string | undefined {
  if (typeof exports !== "object" || exports === null) return undefined
  const server = (exports as Record<string, unknown>)["./server"]
  if (typeof server === "string") return server
  if (typeof server === "object" && server !== null) {
    const conditions = server as Record<string, unknown>
    for (const key of ["import", "default"]) if (typeof conditions[key] === "string") return conditions[key] as string
  }
  return undefined
}

function packageName(spec: string): string {
  const at = spec.indexOf("@", spec.startsWith("@") ? 1 : 0)
  return at > 0 ? spec.slice(0, at) : spec
}

function resolvePackageFolder(name: string, from: string): string | undefined {
  try {
    return path.dirname(createRequire(path.join(from, "noop.js")).resolve(`${name}/package.json`))
  } catch {
    return undefined
  }
}

function findPackageFolder(start: string, name: string): string | undefined {
  let current = path.resolve(start)
  while (true) {
    const candidate = path.join(current, "node_modules", name)
    if (existsSync(path.join(candidate, "package.json"))) return candidate
    const parent = path.dirname(current)
    if (parent === current) return undefined
    current = parent
  }
}

function failure(plugin: PluginSpec, reason: string): Result<string> {
  return {
    success: false,
    error: new ToolTesterError("PLUGIN_LOAD_FAILED", `plugin ${plugin.spec} (from ${plugin.origin}): ${reason}`, {
      data: { spec: plugin.spec, origin: plugin.origin },
    }),
  }
}
