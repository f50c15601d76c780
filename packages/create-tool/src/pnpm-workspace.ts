import { existsSync, readFileSync } from "node:fs"
import { dirname, join, relative } from "node:path"
import { matchesGlobs } from "./_glob-match.ts"
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
 * Its "packages" must take the folder in, or pnpm install there installs nothing for it and `pnpm
 * exec tool-tester` is "not found" (pnpm 10.34.9): said when they leave it out, or when the list is
 * not one of the plain YAML forms read here.
 */
export function pnpmWorkspaceNote(workspace: string, language: Language, root: string): string {
  const hoist = language === "ts" ? ', and "publicHoistPattern: [zod]" for the declarations tsc writes' : ""
  const folder = portablePath(relative(dirname(workspace), root))
  const packages = workspacePackages(workspace)
  const membership =
    packages === undefined
      ? `: its "packages" must include ${printable(folder)}, or pnpm install there installs nothing for it`
      : matchesGlobs(folder, packages)
        ? ` (its "packages" take ${printable(folder)} in)`
        : `: its "packages" leave out ${printable(folder)}: add it, or pnpm install there installs nothing for it`
  return `${printable(workspace)} is a pnpm workspace, whose settings pnpm reads for this package${membership}; for pnpm 11 and later, give it "allowBuilds" with esbuild: false and msgpackr-extract: false${hoist} (docs/publishing-a-plugin.md#pnpm).`
}

// --- internal ---

/**
 * The globs of the file's top-level "packages", as a block list (`- packages/*`, quoted or not) or
 * a flow one (`[a, "b"]`); undefined when the file cannot be read or has another form.
 */
function workspacePackages(file: string): string[] | undefined {
  let text: string
  try {
    text = readFileSync(file, "utf8")
  } catch {
    return undefined
  }
  const lines = text.split(/\r?\n/)
  const start = lines.findIndex((line) => /^packages:/.test(line))
  if (start === -1) return undefined
  const unquote = (value: string) => value.trim().replace(/^(["'])(.*)\1$/, "$2")
  const inline = lines[start]!.replace(/^packages:\s*/, "").replace(/\s+#.*$/, "")
  if (inline !== "") {
    const flow = /^\[(.*)\]$/.exec(inline)
    return flow === null
      ? undefined
      : flow[1]!
          .split(",")
          .map(unquote)
          .filter((glob) => glob !== "")
  }
  const globs: string[] = []
  for (const line of lines.slice(start + 1)) {
    if (/^\s*(#.*)?$/.test(line)) continue
    const item = /^\s*-\s+(.*?)(\s+#.*)?$/.exec(line)
    if (item === null) break
    globs.push(unquote(item[1]!))
  }
  return globs
}
