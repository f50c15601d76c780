import { existsSync } from "node:fs"
import path from "node:path"
import { portablePath, shellWord } from "../_shell-quote.ts"
import type { ConfigDirectory } from "../discovery/config-dirs.ts"
import { displayPath } from "./_paths.ts"
import type { Finding } from "./finding.ts"

/**
 * Config folders whose `node_modules` pnpm installed. At start-up opencode runs its own npm
 * install in each config folder, the global one too (the spec, 2.1); on pnpm's layout it fails,
 * after a long wait, so opencode starts about 100 s later than with npm, yarn or bun
 * (docs/scaffolding.md, the pnpm note): in every project, for the global folder. The message
 * says how to switch, from `cwd`: npm cannot install over pnpm's `node_modules` (npm 11.19 stops
 * with "Cannot read properties of null (reading 'matches')"), so that folder goes first, and
 * pnpm's lock file with it, or tool-tester would go on naming pnpm's commands for the folder.
 */
export function pnpmInstallFindings(directories: readonly ConfigDirectory[], options: { cwd: string }): Finding[] {
  return directories
    .filter((directory) => isPnpmInstall(directory.path))
    .map((directory) => ({
      code: "PNPM_INSTALL" as const,
      severity: "warning" as const,
      file: path.join(directory.path, "node_modules"),
      message: `pnpm installed this folder's packages: opencode runs its own npm install in every config folder when it starts, which fails on pnpm's layout after a long wait, so opencode starts about 100 s later (5 to 9 s with npm, yarn or bun); the tools still load. To start fast, install it with npm: delete ${removable(directory.path, options.cwd)}, then run ${reinstall(directory.path, options.cwd)} (npm cannot install over pnpm's node_modules)`,
    }))
}

// --- internal ---

function isPnpmInstall(folder: string): boolean {
  const modules = path.join(folder, "node_modules")
  return existsSync(path.join(modules, ".pnpm")) || existsSync(path.join(modules, ".modules.yaml"))
}

/** The folder's node_modules, and pnpm's lock file when there is one, as paths from `cwd`. */
function removable(folder: string, cwd: string): string {
  const modules = displayPath(cwd, path.join(folder, "node_modules"))
  const lock = path.join(folder, "pnpm-lock.yaml")
  return existsSync(lock) ? `${modules} and ${displayPath(cwd, lock)}` : modules
}

/** `npm install`, pointed at the folder from `cwd` (`--prefix`: never the project's own package.json). */
function reinstall(folder: string, cwd: string): string {
  const where = displayPath(cwd, folder)
  return where === "." ? "npm install" : `npm install --prefix ${shellWord(portablePath(where))}`
}
