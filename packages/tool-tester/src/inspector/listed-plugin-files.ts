// The plugin files a project's config files list by path (`"plugin": ["./src/plugin.ts"]` in
// opencode.json), found without loading anything: `run --watch` loads the project in an engine,
// which does not say what it imported, and `dev` has not loaded it yet when it starts watching.
import type { ConfigDirectory } from "../discovery/config-dirs.ts"
import { isPathSpec, resolvePluginEntry } from "../discovery/plugin-spec.ts"
import { loadOpencodeConfig } from "../config/opencode-config.ts"
import { pluginSpecs } from "../config/plugin-order.ts"

/**
 * The config files of a project and the module files of the path plugins they list, resolved as
 * opencode resolves them (a folder to its entry). Nothing when a config file does not parse or a
 * path leads nowhere: the load reports those, and the save that fixes them is a config save.
 */
export function listedPluginFiles(options: {
  directory: string
  worktree: string
  directories: readonly ConfigDirectory[]
}): { configFiles: string[]; pluginFiles: string[] } {
  const loaded = loadOpencodeConfig(options)
  if (!loaded.success) return { configFiles: [], pluginFiles: [] }
  const pluginFiles: string[] = []
  // Config entries only: the plugin folders are watched whole, and --plugin values by the caller.
  for (const spec of pluginSpecs(loaded.value.sources, [], [], options.directory)) {
    if (!isPathSpec(spec.spec)) continue
    const entry = resolvePluginEntry(spec, options.directory)
    if (entry.success) pluginFiles.push(entry.value)
  }
  return { configFiles: loaded.value.sources.map((source) => source.file), pluginFiles }
}
