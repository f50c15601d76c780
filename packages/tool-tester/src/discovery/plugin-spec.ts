import { existsSync, readFileSync, statSync } from "node:fs"
import { createRequire } from "node:module"
import path from "node:path"
import { fileURLToPath } from "node:url"
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

/** Path specs start with `file://`, `.` or `/`; anything else is an npm package spec (spec §12). */
export function isPathSpec(spec: string): boolean {
  return spec.startsWith("file://") || spec.startsWith(".") || path.isAbsolute(spec)
}

/**
 * The module file opencode would import for a plugin spec. A folder with package.json uses
 * `exports["./server"]` (string, or its `import`/`default`), else `main`; `exports["."]` alone is
 * skipped by opencode (returned as an error saying so). A folder without package.json uses
 * `index.{ts,tsx,js,mjs,cjs}`. npm specs are resolved from the project, where opencode would have
 * installed them.
 */
export function resolvePluginEntry(plugin: PluginSpec, projectDirectory: string): Result<string> {
  if (isPathSpec(plugin.spec)) {
    const target = plugin.spec.startsWith("file://")
      ? fileURLToPath(plugin.spec)
      : path.resolve(plugin.base, plugin.spec)
    if (!existsSync(target)) return failure(plugin, `${target} does not exist; fix the path`)
    return statSync(target).isDirectory() ? folderEntry(plugin, target) : { success: true, value: target }
  }
  const name = packageName(plugin.spec)
  const require = createRequire(path.join(projectDirectory, "noop.js"))
  let packageJson: string
  try {
    packageJson = require.resolve(`${name}/package.json`)
  } catch {
    const folder = findPackageFolder(projectDirectory, name)
    if (!folder)
      return failure(
        plugin,
        `package ${name} is not installed in ${projectDirectory}; opencode would install ${name}@latest from npm: run npm install ${name} there to test it`,
      )
    return folderEntry(plugin, folder)
  }
  return folderEntry(plugin, path.dirname(packageJson))
}

// --- internal ---

function folderEntry(plugin: PluginSpec, folder: string): Result<string> {
  const manifestFile = path.join(folder, "package.json")
  if (!existsSync(manifestFile)) {
    for (const extension of [".ts", ".tsx", ".js", ".mjs", ".cjs"]) {
      const index = path.join(folder, `index${extension}`)
      if (existsSync(index)) return { success: true, value: index }
    }
    return failure(plugin, `${folder} has no package.json and no index.{ts,tsx,js,mjs,cjs}; add an entry file`)
  }
  const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as { main?: unknown; exports?: unknown }
  const server = serverExport(manifest.exports)
  const entry = server ?? (typeof manifest.main === "string" ? manifest.main : undefined)
  if (!entry) {
    return failure(
      plugin,
      `${manifestFile} has no "main" and no exports["./server"]; opencode skips it silently (exports["."] alone is not read): add "main"`,
    )
  }
  const file = path.resolve(folder, entry)
  if (!existsSync(file))
    return failure(plugin, `${file} (the entry of ${manifestFile}) does not exist; build the package`)
  return { success: true, value: file }
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
