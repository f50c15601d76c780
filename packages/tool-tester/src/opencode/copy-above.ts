// What a throw-away copy keeps from above the project. opencode reads the `.opencode` folders and
// `opencode.json` files from the project up to its git worktree root, and outside git up to the
// filesystem root (docs/opencode-contract.md#config-folders). And Bun, which runs the tools, reads
// above the project whatever a tool's imports lead to: the `node_modules` up there (a dependency
// hoisted to a monorepo's root), the `tsconfig.json` nearest to a file (its `paths` aliases, and the
// files it `extends`), and the sources an alias or a relative import names (observed on 1.18.34:
// an `@lib/*` alias of the repository root's tsconfig.json, leading to its `lib/`, works in a tool of
// `app/.opencode/tools`). A copy of the project folder alone loses all of it, so `list` and `run`
// would offer and run a tool that e2e's opencode calls unavailable or fails to import.
//
// So the copy keeps the path from its top down to the project, and in each folder above the
// project: `.opencode` copied (as copy-folder.ts copies), `opencode.json` and `opencode.jsonc`
// copied, `.git` left out (the copy's top gets a repository of its own: worktree-root.ts), and every
// other entry linked to what it leads to (read through the link, as `node_modules` is). The top is
// the git worktree root. Outside git it is the highest folder above the project that is the user's
// own and holds something opencode or Bun reads there by name (`.opencode`, `opencode.json(c)`,
// `package.json`, `tsconfig.json`, `node_modules`), and a folder on the way that holds none keeps
// only the path (a folder of projects: its other entries are not the project's): the walk stops
// below the filesystem root, the home folder (whose `.opencode` is the user's
// global `~/.opencode`, which e2e leaves out with the rest of the user's config), the temp folder
// (the user's own on macOS and Windows, and full of what is not the project's) and any folder
// another user owns or everyone can write to (`/tmp`).
// opencode itself reads config there too; bunfig.toml it reads nowhere (observed: not even in the
// project), so nothing is kept for it.

import { type BigIntStats, existsSync } from "node:fs"
import { copyFile, mkdir, readdir, realpath, stat, symlink } from "node:fs/promises"
import { homedir, tmpdir } from "node:os"
import { basename, dirname, isAbsolute, join, relative } from "node:path"
import { realPathOrAsIs } from "../_real-path.ts"
import { statOf } from "../_file-stats.ts"
import { copyFolder } from "./copy-folder.ts"

/** The config files read in a folder above the project: copied, as the project's are. */
const CONFIG_FILES = new Set(["opencode.json", "opencode.jsonc"])

/** What opencode or Bun reads in a folder above the project by its name: outside git, a folder without any is not kept. */
const READ_BY_NAME = [".opencode", ...CONFIG_FILES, "package.json", "tsconfig.json", "node_modules"]

/**
 * The folder the copy's top stands for: the project's git worktree root; outside git, the highest
 * folder above the project that is the user's own (see above) and holds something read by name
 * there (READ_BY_NAME), or the project itself.
 */
export function topAbove(directory: string): string {
  const worktree = gitWorktreeOf(directory)
  if (worktree !== undefined) return worktree
  let top = directory
  const stops = new Set([homedir(), tmpdir()].flatMap((folder) => [folder, realPathOrAsIs(folder)]))
  for (let folder = dirname(directory); folder !== dirname(folder) && !stops.has(folder); folder = dirname(folder)) {
    if (!ownFolder(folder)) break
    if (holdsReadByName(folder)) top = folder
  }
  return top
}

/**
 * Fills `copyTop`, which stands for `top` (topAbove), with what is read in each folder between
 * `top` and the project `directory`; the project's own folder is left to the caller. Nothing leads
 * into `leaveOut` (the throw-away folder itself, when it lies in one of those folders).
 */
export async function copyAbove(directory: string, top: string, copyTop: string, leaveOut: string): Promise<void> {
  // In a repository every folder is the project's; outside git a folder on the way that holds
  // nothing read by name (a folder of projects, a temp folder on Windows) keeps only the path.
  const inGit = existsSync(join(top, ".git"))
  for (let below = directory; below !== top; below = dirname(below)) {
    const folder = dirname(below)
    const mirror = join(copyTop, relative(top, folder))
    await mkdir(mirror, { recursive: true })
    if (!inGit && !holdsReadByName(folder)) continue
    // A folder that can be entered but not listed: what is in it cannot be kept.
    for (const name of await readdir(folder).catch(() => [])) {
      if (name === basename(below) || name === ".git") continue
      await keepEntry(join(folder, name), join(mirror, name), leaveOut)
    }
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

function holdsReadByName(folder: string): boolean {
  return READ_BY_NAME.some((name) => existsSync(join(folder, name)))
}

/** A folder this user owns and no one else can write to (on Windows, every folder: no such modes). */
function ownFolder(folder: string): boolean {
  if (process.platform === "win32") return true
  let stats: BigIntStats
  try {
    stats = statOf(folder)
  } catch {
    return false
  }
  return Number(stats.uid) === process.getuid?.() && (Number(stats.mode) & 0o002) === 0
}

async function keepEntry(entry: string, mirror: string, leaveOut: string): Promise<void> {
  // Links followed: what the entry is, wherever it leads (a dangling link is left out).
  const stats = await stat(entry).catch(() => undefined)
  if (stats === undefined) return
  const real = await realpath(entry)
  const inside = relative(real, leaveOut)
  if (inside === "" || (!inside.startsWith("..") && !isAbsolute(inside))) return
  const name = basename(entry)
  if (name === ".opencode" && stats.isDirectory()) return copyFolder(entry, mirror)
  if (CONFIG_FILES.has(name) && stats.isFile()) return copyFile(entry, mirror)
  if (stats.isDirectory()) return symlink(real, mirror, "junction")
  if (!stats.isFile()) return
  // A link to a file needs a privilege on Windows that a user may not hold: a copy reads the same.
  await symlink(real, mirror, "file").catch(() => copyFile(real, mirror))
}
