// The plugins an e2e run's configs list, made loadable by the real opencode as they would be on the
// user's machine, and the ones it cannot load reported up front (opencode drops them with no trace
// in its output or log: only a bus event no `opencode run` prints;
// docs/opencode-contract.md#plugin-specs).
//
// A plugin named by package (an npm spec: `name`, `name@1.2.3`, `@scope/name@next`) is installed by
// opencode from npm into `<cache>/opencode/packages/<spec>/` (a bare name gets `@latest`), and the
// install is skipped when `<that folder>/node_modules/<name>` exists; opencode then loads it from
// there as an npm plugin (its entry, `engines.opencode` check, dedup key and options are those of
// the npm spec). An e2e run is offline with a throw-away home, so before it starts we link the
// package the project installed into that place; its own dependencies resolve from where it is
// installed, as for `list` and `run`.

import { lstat, mkdir, realpath, symlink } from "node:fs/promises"
import { dirname, join } from "node:path"
import { loadOpencodeConfig } from "../config/opencode-config.ts"
import { configDirectories } from "../discovery/config-dirs.ts"
import { pluginSpecs } from "../config/plugin-order.ts"
import {
  installedPlugin,
  isPathSpec,
  type PluginSpec,
  pluginInstallAdvice,
  resolvePluginEntry,
} from "../discovery/plugin-spec.ts"
import { findWorktree } from "../discovery/worktree.ts"
import type { E2EError } from "./e2e-result.ts"
import type { Sandbox } from "../opencode/sandbox.ts"

type PluginEntry = string | [string, Record<string, unknown>]

export interface ConfiguredPluginsOptions {
  sandbox: Sandbox
  /** The user's project folder, where npm plugins are installed. */
  directory: string
  /** The `plugin` list of `OPENCODE_CONFIG_CONTENT`. */
  contentPlugins: readonly PluginEntry[]
}

/**
 * Links every npm plugin of the run's configs into the sandbox's opencode cache, and returns one
 * error per configured plugin opencode will not load: a package that is not installed, a path
 * that does not exist, a package without an entry opencode reads.
 */
export async function prepareConfiguredPlugins(options: ConfiguredPluginsOptions): Promise<E2EError[]> {
  const errors: E2EError[] = []
  for (const plugin of configuredPlugins(options.sandbox, options.contentPlugins)) {
    const npm = isPathSpec(plugin.spec) ? undefined : parseRegistrySpec(plugin.spec)
    if (npm !== undefined) {
      const installed = installedPlugin(npm.name, options.directory)
      if (installed === undefined) {
        errors.push({
          source: "plugin",
          message: `plugin ${plugin.spec} (from ${plugin.origin}) is not installed in ${options.directory}: opencode would install ${npm.cacheSpec} from npm, which e2e does not do (it runs offline), so its tools are missing; ${pluginInstallAdvice(plugin.spec, options.directory)}`,
        })
        continue
      }
      await linkIntoCache(options.sandbox, npm, installed)
    }
    const entry = resolvePluginEntry(plugin, options.directory)
    if (!entry.success) errors.push({ source: "plugin", message: entry.error.message })
  }
  // Name the user's files, not their copies in the sandbox (deleted after the run).
  const { project } = options.sandbox
  return errors.map((error) => ({ ...error, message: error.message.replaceAll(project, options.directory) }))
}

/** `name`, `name@1.2.3`, `@scope/name@^1`, `name@next`; undefined for any other kind of spec (`file:`, git, URL, alias). */
export function parseRegistrySpec(spec: string): { name: string; cacheSpec: string } | undefined {
  const at = spec.indexOf("@", spec.startsWith("@") ? 1 : 0)
  const name = at > 0 ? spec.slice(0, at) : spec
  if (!packageNamePattern.test(name)) return undefined
  const version = at > 0 ? spec.slice(at + 1) : ""
  if (version.includes(":") || version.includes("/")) return undefined
  return { name, cacheSpec: at > 0 ? spec : `${spec}@latest` }
}

// --- internal ---

const packageNamePattern = /^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/i

/** The plugin specs opencode reads in the sandbox, in its order and deduplicated as it does. */
function configuredPlugins(sandbox: Sandbox, contentPlugins: readonly PluginEntry[]): PluginSpec[] {
  const directory = sandbox.project
  const worktree = findWorktree(directory)
  const env = { XDG_CONFIG_HOME: sandbox.configHome }
  const directories = configDirectories({ directory, worktree, env, home: sandbox.home })
  const loaded = loadOpencodeConfig({ directory, worktree, directories })
  // An unreadable config file is opencode's to report.
  if (!loaded.success) return []
  const sources = [...loaded.value.sources, { file: "(config option)", plugins: [...contentPlugins] }]
  return pluginSpecs(sources, directories, [], directory).map((plugin) =>
    plugin.origin === "(config option)" ? { ...plugin, origin: "the e2e config (--plugin, --config)" } : plugin,
  )
}

async function linkIntoCache(sandbox: Sandbox, npm: { name: string; cacheSpec: string }, installed: string) {
  const target = join(sandbox.cacheHome, "opencode", "packages", npm.cacheSpec, "node_modules", npm.name)
  if ((await lstat(target).catch(() => undefined)) !== undefined) return
  await mkdir(dirname(target), { recursive: true })
  await symlink(await realpath(installed), target, "junction")
}
