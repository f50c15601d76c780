// The npm plugins of the server behind `input.client`. That server is a second opencode: it loads
// the project's plugins itself, and opencode installs a plugin named by package from npm into
// `<cache>/opencode/packages/<spec>/` unless `node_modules/<name>` is already there
// (docs/opencode-contract.md#plugin-specs). tool-tester loads the package the project installed,
// so the server's cache (a throw-away folder of its own) gets that package linked in its place, as
// e2e does: the server loads the same code, nothing is downloaded, and its start does not wait
// for npm (a first start that installed four plugins took over a minute).
import { lstatSync, mkdirSync, realpathSync, symlinkSync } from "node:fs"
import path from "node:path"
import { loadOpencodeConfig } from "../config/opencode-config.ts"
import { configDirectories, type Environment } from "../discovery/config-dirs.ts"
import { pluginSpecs } from "../discovery/plugin-order.ts"
import { isPathSpec } from "../discovery/plugin-spec.ts"
import { findWorktree } from "../discovery/worktree.ts"
import { parseRegistrySpec } from "../e2e/configured-plugins.ts"
import { findPackage } from "../engine/opencode-binary.ts"

/**
 * Links each npm plugin the project's configs name, as installed for the project (its
 * node_modules or a parent's), into `<cacheHome>/opencode/packages/<spec>/node_modules/<name>`.
 * A package that is not installed is left to the server (tool-tester reports it as
 * PLUGIN_LOAD_FAILED); an unreadable config is the server's to report.
 */
export function linkProjectPlugins(options: { directory: string; env: Environment; cacheHome: string }): void {
  const { directory, env } = options
  const worktree = findWorktree(directory)
  const home = env["HOME"] ?? env["USERPROFILE"]
  const directories = configDirectories({ directory, worktree, env, ...(home ? { home } : {}) })
  const loaded = loadOpencodeConfig({ directory, worktree, directories })
  if (!loaded.success) return
  for (const plugin of pluginSpecs(loaded.value.sources, directories, [], directory)) {
    const npm = isPathSpec(plugin.spec) ? undefined : parseRegistrySpec(plugin.spec)
    const installed = npm && findPackage(npm.name, directory)
    if (!npm || !installed) continue
    const target = path.join(options.cacheHome, "opencode", "packages", npm.cacheSpec, "node_modules", npm.name)
    if (exists(target)) continue
    mkdirSync(path.dirname(target), { recursive: true })
    symlinkSync(realpathSync(installed), target, "junction")
  }
}

function exists(file: string): boolean {
  try {
    lstatSync(file)
    return true
  } catch {
    return false
  }
}
