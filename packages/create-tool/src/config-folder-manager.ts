import { existsSync } from "node:fs"
import { join } from "node:path"
import type { ToolLocation } from "./options.ts"
import type { PackageManagerInfo } from "./package-manager.ts"
import { printable } from "./printable.ts"

// When it starts, opencode runs its own npm install in every config folder (a project's .opencode,
// the global one); on a node_modules that pnpm installed, that install fails after a long wait and
// opencode starts about 100 s later (docs/scaffolding.md, the pnpm note; tool-tester doctor's
// PNPM_INSTALL). So the commands for a config folder are npm's when pnpm ran create-tool. A plugin
// package is not a config folder (opencode loads it in place): it keeps the user's package manager.

const npm: PackageManagerInfo = { name: "npm", version: undefined }

/**
 * The package manager the commands for the folder `root` are written for (the next steps, the
 * generated files' comments): npm in place of pnpm for a config folder, unless pnpm installed its
 * node_modules already (npm stops on pnpm's layout, so only pnpm's commands work there as pasted).
 */
export function configFolderPackageManager(
  packageManager: PackageManagerInfo,
  location: ToolLocation,
  root: string,
): PackageManagerInfo {
  if (packageManager.name !== "pnpm" || location === "plugin" || isPnpmInstall(root)) return packageManager
  return npm
}

/** The note on the package manager of a config folder's commands, when pnpm ran create-tool; else undefined. */
export function configFolderManagerNote(
  packageManager: PackageManagerInfo,
  location: ToolLocation,
  root: string,
): string | undefined {
  if (packageManager.name !== "pnpm" || location === "plugin") return undefined
  const slow =
    "opencode runs its own npm install in every config folder when it starts, which fails on pnpm's layout after a long wait, so opencode starts about 100 s later (docs/scaffolding.md#run-it)"
  if (!isPnpmInstall(root)) return `The next steps install ${printable(root)} with npm, not pnpm: ${slow}.`
  return `pnpm installed ${printable(join(root, "node_modules"))}, so the next steps use pnpm there: ${slow}; to start fast, delete that node_modules (and pnpm-lock.yaml), then install with npm.`
}

// --- internal ---

/** Whether pnpm installed `folder`'s node_modules (the test of tool-tester doctor's PNPM_INSTALL). */
function isPnpmInstall(folder: string): boolean {
  const modules = join(folder, "node_modules")
  return existsSync(join(modules, ".pnpm")) || existsSync(join(modules, ".modules.yaml"))
}
