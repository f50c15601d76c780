// A copy of a folder that shares nothing writable with the original: links are materialised (a link
// to a file becomes a copy of the file, a link to a folder a copy of the folder), so nothing written
// into the copy can reach through a link into the user's files (a `.opencode` that is a link into a
// dotfiles folder, a tool file linked from elsewhere). `node_modules` folders are the exception:
// they can be large and are only read, so they become links to the originals, and what is written
// beside them (the plugin pre-install) shadows them first (plugin-package.ts). A link back into a
// folder being copied (a loop) and a link that leads nowhere are left out.

import { copyFile, lstat, mkdir, readdir, realpath, stat, symlink } from "node:fs/promises"
import { isAbsolute, join, relative, resolve } from "node:path"
import { ToolTesterError } from "../errors.ts"

/** Copies `source` to `target` (created), links materialised, `node_modules` linked. */
export async function copyFolder(source: string, target: string): Promise<void> {
  const copy = async (from: string, to: string, ancestors: ReadonlySet<string>): Promise<void> => {
    const real = await realpath(from)
    // A folder that contains itself through a link: copying it would never end.
    if (ancestors.has(real)) return
    const inside = new Set(ancestors).add(real)
    await mkdir(to, { recursive: true })
    for (const entry of await readdir(from, { withFileTypes: true })) {
      const entryFrom = join(from, entry.name)
      const entryTo = join(to, entry.name)
      // Follows links: what the entry is, wherever it leads (a dangling link has no stats).
      const stats = entry.isSymbolicLink() ? await stat(entryFrom).catch(() => undefined) : entry
      if (stats === undefined) continue
      if (stats.isDirectory()) {
        if (entry.name === "node_modules") await symlink(await realpath(entryFrom), entryTo, "junction")
        else await copy(entryFrom, entryTo, inside)
      } else if (stats.isFile()) {
        await copyFile(entryFrom, entryTo)
      }
    }
  }
  await copy(source, target, new Set())
}

/**
 * Throws unless `file` would be written inside `root`: its folder, links resolved, is `root` or
 * below it, and `file` itself is not a link. Every file the eval writes into its copy goes
 * through this check, so a link left in a copy could never carry a write into the user's files.
 */
export async function assertInside(root: string, file: string): Promise<void> {
  const realRoot = await realpath(root)
  const folder = await realpath(resolve(file, "..")).catch(() => undefined)
  const linked = (await lstat(file).catch(() => undefined))?.isSymbolicLink() === true
  const within = folder !== undefined && isWithin(realRoot, folder)
  if (within && !linked) return
  throw new ToolTesterError(
    "TEMP_FOLDER_UNSAFE",
    `refused to write ${file}: it leads outside the throw-away copy ${root}${linked ? " (it is a link)" : ""}, so nothing was written there; this is a bug in tool-tester, please report it`,
    { data: { file, root } },
  )
}

// --- internal ---

function isWithin(root: string, path: string): boolean {
  const rest = relative(root, path)
  return rest === "" || (!rest.startsWith("..") && !isAbsolute(rest))
}
