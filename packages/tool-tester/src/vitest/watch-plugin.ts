// vitest's watch mode re-runs a test when a module it imported changes. Tool files never enter that
// graph (tool-tester loads them in the bun engine's process, or through prepared copies), so an edit
// of a tool left its tests green and stale. This plugin makes an edit in opencode's tool and plugin
// folders (and the files next to them that they import) re-run the tests, through vitest's
// `forceRerunTriggers`. Files a tool imports from outside the config folders need `extraTriggers`.
//
// The triggers are absolute: vitest matches them without `dot`, so `**` would not cross a folder
// such as `.opencode` or `~/.config`. Folders outside the root are added to vite's watcher.
import { existsSync } from "node:fs"
import os from "node:os"
import path from "node:path"

/** vitest's own defaults, kept: setting the option replaces them. */
const VITEST_DEFAULT_TRIGGERS = ["**/package.json/**", "**/{vitest,vite}.config.*/**"]
/** Under a config folder: every folder but installed packages and tests (tools, plugins, the helpers they import), and opencode's config. */
const WATCHED = ["!(node_modules|test|tests|__snapshots__)/**", "opencode.{json,jsonc}"]

export type ToolTesterPluginOptions = {
  /** More globs whose changes re-run the tests (files your tools read, for example). */
  extraTriggers?: string[]
}

type ViteConfig = { root?: string; test?: { forceRerunTriggers?: string[] } }
type ViteServer = { watcher: { add(paths: string | string[]): unknown } }

/**
 * A vite plugin for vitest.config.ts: `plugins: [toolTester()]`. Edits in the config folders opencode
 * reads for this root (every `.opencode` from the root up, the root itself when it is one, and the
 * global `~/.config/opencode`) re-run the tests: their tool and plugin folders, helper folders,
 * and opencode.json; not node_modules, test folders or snapshots.
 */
export function toolTester(options: ToolTesterPluginOptions = {}) {
  let folders: string[] = []
  return {
    name: "opencode-tool-tester",
    config(config: ViteConfig) {
      folders = configFolders(path.resolve(config.root ?? process.cwd()))
      const own = [
        ...folders.flatMap((folder) => WATCHED.map((glob) => `${escapeGlob(folder)}/${glob}`)),
        ...(options.extraTriggers ?? []),
      ]
      // vite concatenates arrays a plugin returns with the user's: add vitest's defaults only when the user set none.
      const defaults = config.test?.forceRerunTriggers === undefined ? VITEST_DEFAULT_TRIGGERS : []
      return { test: { forceRerunTriggers: [...defaults, ...own] } }
    },
    configureServer(server: ViteServer) {
      // vite watches its root; the folders above it (and the global one) only when added.
      const outside = folders.filter((folder) => existsSync(folder))
      if (outside.length > 0) server.watcher.add(outside)
    },
  }
}

// --- internal ---

function configFolders(root: string): string[] {
  const folders = path.basename(root) === ".opencode" ? [root] : []
  for (let directory = root; ; directory = path.dirname(directory)) {
    folders.push(path.join(directory, ".opencode"))
    if (path.dirname(directory) === directory) break
  }
  const configHome = process.env["XDG_CONFIG_HOME"] || path.join(os.homedir(), ".config")
  folders.push(path.join(configHome, "opencode"))
  return folders
}

/** A path as a literal in a picomatch glob. */
function escapeGlob(literal: string): string {
  return literal
    .split(path.sep)
    .join("/")
    .replace(/[*?[\]{}()!+@\\]/g, "\\$&")
}
