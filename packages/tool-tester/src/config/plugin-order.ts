import path from "node:path"
import { pathToFileURL } from "node:url"
import type { ConfigSource } from "./opencode-config.ts"
import type { ConfigDirectory } from "../discovery/config-dirs.ts"
import type { PluginSpec } from "../discovery/plugin-spec.ts"
import { isPathSpec } from "../discovery/plugin-spec.ts"
import { PLUGIN_FOLDERS, SCANNED_EXTENSIONS, scanFolder } from "../discovery/scan.ts"

/**
 * Plugin specs in opencode's load order (docs/opencode-contract.md#plugin-order): the `plugin`
 * entries of each config file, then each config folder's `{plugin,plugins}/*.{ts,js}` files, then
 * `--plugin` values; deduplicated with the later entry winning (key: file URL for paths, package
 * name for npm specs).
 */
export function pluginSpecs(
  sources: readonly ConfigSource[],
  directories: readonly ConfigDirectory[],
  extra: ReadonlyArray<string | [string, Record<string, unknown>]>,
  directory: string,
): PluginSpec[] {
  const specs: PluginSpec[] = []
  const fromEntry = (entry: string | [string, Record<string, unknown>], base: string, origin: string): PluginSpec =>
    typeof entry === "string"
      ? { spec: entry, options: undefined, base, origin }
      : { spec: entry[0], options: entry[1], base, origin }
  const fromSource = (source: ConfigSource) => {
    const base = source.file === "(config option)" ? directory : path.dirname(source.file)
    for (const entry of source.plugins) specs.push(fromEntry(entry, base, source.file))
  }
  const folderOf = (source: ConfigSource) =>
    directories.find((entry) => entry.kind !== "global" && path.dirname(source.file) === entry.path)
  // The global and project opencode.json files first, then folder by folder: its opencode.json, then its files.
  for (const source of sources) if (!folderOf(source) && source.file !== "(config option)") fromSource(source)
  for (const configDirectory of directories) {
    for (const source of sources) if (folderOf(source) === configDirectory) fromSource(source)
    for (const file of scanFolder(configDirectory.path, PLUGIN_FOLDERS, SCANNED_EXTENSIONS)) {
      specs.push({ spec: file, options: undefined, base: configDirectory.path, origin: "plugin folder" })
    }
  }
  for (const source of sources) if (source.file === "(config option)") fromSource(source)
  for (const entry of extra) specs.push(fromEntry(entry, directory, "--plugin"))
  const byKey = new Map<string, PluginSpec>()
  for (const spec of specs) {
    const key = isPathSpec(spec.spec)
      ? pathToFileURL(
          spec.spec.startsWith("file://") ? new URL(spec.spec).pathname : path.resolve(spec.base, spec.spec),
        ).href
      : spec.spec.replace(/(.)@.*$/, "$1")
    byKey.delete(key)
    byKey.set(key, spec)
  }
  return [...byKey.values()]
}
