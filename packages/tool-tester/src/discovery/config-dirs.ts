import os from "node:os"
import path from "node:path"

type ConfigDirectoryKind = "global" | "project" | "home" | "env"

export type ConfigDirectory = { path: string; kind: ConfigDirectoryKind }

export type Environment = Record<string, string | undefined>

/** Where opencode keeps user-level config: `$XDG_CONFIG_HOME/opencode`, else `~/.config/opencode`. */
export function globalConfigDirectory(env: Environment = process.env, home = os.homedir()): string {
  const base = env["XDG_CONFIG_HOME"] || path.join(home, ".config")
  return path.join(base, "opencode")
}

/**
 * The folders opencode reads tools, plugins and opencode.json from, in its order
 * (docs/opencode-contract.md#config-folders): the global config dir, every `.opencode` from the
 * project dir up to the worktree (nearest first), `~/.opencode`, then `OPENCODE_CONFIG_DIR`;
 * duplicates removed keeping the first. Later folders win when two define the same tool id.
 */
export function configDirectories(options: {
  directory: string
  worktree: string
  env?: Environment
  home?: string
  global?: boolean
}): ConfigDirectory[] {
  const env = options.env ?? process.env
  const home = options.home ?? os.homedir()
  const includeUser = options.global ?? true
  const found: ConfigDirectory[] = []
  if (includeUser) found.push({ path: globalConfigDirectory(env, home), kind: "global" })
  if (!env["OPENCODE_DISABLE_PROJECT_CONFIG"]) {
    for (const folder of walkUp(options.directory, options.worktree)) {
      found.push({ path: path.join(folder, ".opencode"), kind: "project" })
    }
  }
  if (includeUser) found.push({ path: path.join(home, ".opencode"), kind: "home" })
  if (env["OPENCODE_CONFIG_DIR"]) found.push({ path: path.resolve(env["OPENCODE_CONFIG_DIR"]), kind: "env" })
  const seen = new Set<string>()
  return found.filter((entry) => !seen.has(entry.path) && seen.add(entry.path))
}

/** Folders from `start` up to `stop` inclusive (or to the filesystem root), nearest first. */
export function walkUp(start: string, stop: string): string[] {
  const folders: string[] = []
  let current = path.resolve(start)
  const end = path.resolve(stop)
  while (true) {
    folders.push(current)
    if (current === end) break
    const parent = path.dirname(current)
    if (parent === current) break
    current = parent
  }
  return folders
}
