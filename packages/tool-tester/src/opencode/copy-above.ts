// What a throw-away copy keeps from above the project. opencode reads the `.opencode` folders and
// `opencode.json` files from the project up to its git worktree root (docs/opencode-contract.md#config-folders):
// started in a package of a monorepo, it offers the tools of the repository root's `.opencode`
// too. And Bun resolves a tool's imports through the `node_modules` folders up there (a dependency
// hoisted to the root). A copy of the project folder alone loses both, so `list` and `run` would
// offer a tool that e2e's opencode calls unavailable. So the copy keeps the path from the worktree
// root down to the project, and in each folder above the project what is read there: `.opencode`
// (copied as copy-folder.ts copies), `opencode.json`, `opencode.jsonc` and `package.json` (its
// "type" and "imports" apply to the files below it), and `node_modules`, linked. Outside git,
// opencode reads up to the filesystem root, which is not the project's to copy: the copy is the
// project alone, as before.

import { existsSync } from "node:fs"
import { copyFile, mkdir, realpath, stat, symlink } from "node:fs/promises"
import { dirname, join, relative } from "node:path"
import { copyFolder } from "./copy-folder.ts"

/** The files read in a folder above the project. */
const FILES_ABOVE = ["opencode.json", "opencode.jsonc", "package.json"]

/**
 * Where the project goes in a copy whose top stands for its git worktree root: the project's path
 * below that root (`packages/app`), or `""` when it is the root or not in git.
 */
export function pathBelowWorktree(directory: string): string {
  const worktree = gitWorktreeOf(directory)
  return worktree === undefined ? "" : relative(worktree, directory)
}

/**
 * Fills `top` (standing for the git worktree root of `directory`) with what is read in each folder
 * between that root and the project; the project's own folder is left to the caller.
 */
export async function copyAbove(directory: string, top: string): Promise<void> {
  const worktree = gitWorktreeOf(directory)
  if (worktree === undefined || worktree === directory) return
  for (let folder = dirname(directory); ; folder = dirname(folder)) {
    const mirror = join(top, relative(worktree, folder))
    await mkdir(mirror, { recursive: true })
    await copyReadEntries(folder, mirror)
    if (folder === worktree || dirname(folder) === folder) return
  }
}

// --- internal ---

/** The nearest folder at or above `directory` holding `.git` (a folder, or a file in a linked worktree). */
function gitWorktreeOf(directory: string): string | undefined {
  for (let folder = directory; ; folder = dirname(folder)) {
    if (existsSync(join(folder, ".git"))) return folder
    if (dirname(folder) === folder) return undefined
  }
}

async function copyReadEntries(folder: string, mirror: string): Promise<void> {
  // Links followed: what each entry is, wherever it leads (a dangling link is left out).
  const config = await stat(join(folder, ".opencode")).catch(() => undefined)
  if (config?.isDirectory() === true) await copyFolder(join(folder, ".opencode"), join(mirror, ".opencode"))
  for (const name of FILES_ABOVE) {
    const file = await stat(join(folder, name)).catch(() => undefined)
    if (file?.isFile() === true) await copyFile(join(folder, name), join(mirror, name))
  }
  const modules = await stat(join(folder, "node_modules")).catch(() => undefined)
  if (modules?.isDirectory() === true)
    await symlink(await realpath(join(folder, "node_modules")), join(mirror, "node_modules"), "junction")
}
