import { existsSync } from "node:fs"
import { dirname, join, relative } from "node:path"
import { portablePath } from "./_shell-quote.ts"
import type { Language } from "./options.ts"
import { printable } from "./printable.ts"

// pnpm 11 and later read their settings from pnpm-workspace.yaml only, and stop an install at a
// dependency's build script that no setting allows or denies. A scaffold brings one (templates
// `_project` and `_plugin`), unless the package is inside a pnpm workspace, whose file pnpm reads
// instead: a second one would cut the package out of that workspace.

export const PNPM_WORKSPACE = "pnpm-workspace.yaml"

/** The pnpm-workspace.yaml of a folder above `directory` (not `directory`'s own), or undefined. */
export function enclosingPnpmWorkspace(directory: string): string | undefined {
  for (let folder = dirname(directory); ; folder = dirname(folder)) {
    const file = join(folder, PNPM_WORKSPACE)
    if (existsSync(file)) return file
    if (dirname(folder) === folder) return undefined
  }
}

/**
 * The note for a plugin package scaffolded inside a pnpm workspace at `root`: what that file needs.
 * Its "packages" must take the folder in, or pnpm install there installs nothing for it (not
 * checked here: that needs pnpm's YAML and glob rules).
 */
export function pnpmWorkspaceNote(workspace: string, language: Language, root: string): string {
  const hoist = language === "ts" ? ', and "publicHoistPattern: [zod]" for the declarations tsc writes' : ""
  const folder = portablePath(relative(dirname(workspace), root))
  return `${printable(workspace)} is a pnpm workspace, whose settings pnpm reads for this package: its "packages" must include ${printable(folder)}, or pnpm install there installs nothing for it; for pnpm 11 and later, give it "allowBuilds" with esbuild: false and msgpackr-extract: false${hoist} (docs/publishing-a-plugin.md#pnpm).`
}
