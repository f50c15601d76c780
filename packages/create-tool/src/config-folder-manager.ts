import { existsSync } from "node:fs"
import { join } from "node:path"
import type { ToolLocation } from "./options.ts"
import { isYarnClassic, type PackageManager, type PackageManagerInfo } from "./package-manager.ts"
import { printable } from "./printable.ts"

// When it starts, opencode runs its own npm install in every config folder (a project's .opencode,
// the global one); on a node_modules that pnpm installed, that install fails after a long wait and
// opencode starts about 100 s later (docs/scaffolding.md, the pnpm note; tool-tester doctor's
// PNPM_INSTALL). So the commands for a config folder are npm's when pnpm ran create-tool. A plugin
// package is not a config folder (opencode loads it in place): it keeps the user's package manager.
// A config folder whose node_modules pnpm installed already gets pnpm's commands, whoever ran
// create-tool (overPnpm): npm's install stops there, yarn 1's and Bun's leave part of pnpm's layout.
// yarn 2+ (with the nodeLinker the next steps set first) replaces it whole: it keeps its commands.

const npm: PackageManagerInfo = { name: "npm", version: undefined }

/**
 * The package manager the commands for the folder `root` are written for (the next steps, the
 * generated files and their comments): npm in place of pnpm for a config folder, and pnpm for one
 * whose node_modules pnpm installed already (only pnpm's commands work there as pasted), unless
 * yarn 2+, whose install replaces pnpm's, ran create-tool.
 */
export function configFolderPackageManager(
  packageManager: PackageManagerInfo,
  location: ToolLocation,
  root: string,
): PackageManagerInfo {
  if (location === "plugin") return packageManager
  if (isPnpmInstall(root) && !replacesPnpmInstall(packageManager))
    return packageManager.name === "pnpm" ? packageManager : { name: "pnpm", version: undefined }
  return packageManager.name === "pnpm" ? npm : packageManager
}

/**
 * The note on the package manager of a config folder's commands, when they are not those of the
 * package manager that ran create-tool, or when pnpm installed the folder; else undefined.
 */
export function configFolderManagerNote(
  packageManager: PackageManagerInfo,
  location: ToolLocation,
  root: string,
): string | undefined {
  if (location === "plugin") return undefined
  const slow =
    "opencode runs its own npm install in every config folder when it starts, which fails on pnpm's layout after a long wait, so opencode starts about 100 s later (docs/scaffolding.md#run-it)"
  if (!isPnpmInstall(root) || replacesPnpmInstall(packageManager)) {
    if (packageManager.name !== "pnpm") return undefined
    return `The next steps install ${printable(root)} with npm, not pnpm: ${slow}.`
  }
  const why = packageManager.name === "pnpm" ? "" : ` (${overPnpm[packageManager.name]})`
  return `pnpm installed ${printable(join(root, "node_modules"))}, so the next steps use pnpm there${why}: ${slow}; to start fast, delete that node_modules (and pnpm-lock.yaml), then install with npm.`
}

// --- internal ---

/** What each other package manager's install does over pnpm's node_modules (npm 11.19, yarn 1.22.22, Bun 1.3.14). */
const overPnpm: Record<Exclude<PackageManager, "pnpm">, string> = {
  npm: "npm install stops on pnpm's layout",
  yarn: "yarn 1's install leaves pnpm's .pnpm folder behind",
  bun: "bun install keeps pnpm's links into .pnpm",
}

/** Whether `packageManager`'s install leaves no trace of pnpm's node_modules: yarn 2+'s (4.9.2 checked). */
function replacesPnpmInstall(packageManager: PackageManagerInfo): boolean {
  return packageManager.name === "yarn" && !isYarnClassic(packageManager)
}

/** Whether pnpm installed `folder`'s node_modules (the test of tool-tester doctor's PNPM_INSTALL). */
function isPnpmInstall(folder: string): boolean {
  const modules = join(folder, "node_modules")
  return existsSync(join(modules, ".pnpm")) || existsSync(join(modules, ".modules.yaml"))
}
