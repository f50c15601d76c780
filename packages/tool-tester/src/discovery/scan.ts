import { readdirSync, readlinkSync, realpathSync } from "node:fs"
import { lstatOf, statOf } from "../_file-stats.ts"
import path from "node:path"

/**
 * The files opencode would import from one config folder for a pattern like `{tool,tools}/*.{js,ts}`:
 * direct children only (no recursion), only the given extensions (so `.mjs`, `.cjs`, `.tsx` are ignored,
 * while `x.d.ts` matches `.ts`), dotfiles included, symlinks followed (a link to a device or a FIFO
 * too: see isFile). A symbolic link loop with such
 * a name (`a.ts -> b.ts -> a.ts`) is listed too, as opencode's glob lists it: importing it then fails
 * with ELOOP, and that failure is opencode's (on 1.18.34, its whole tool list fails with it).
 *
 * opencode takes them in the order its glob returns, which is not sorted. We sort them by name in
 * each folder so runs are reproducible; doctor warns when two files in one folder define the same id.
 */
export function scanFolder(
  configDirectory: string,
  folderNames: readonly string[],
  extensions: readonly string[],
): string[] {
  const files: string[] = []
  for (const folderName of folderNames) {
    const folder = path.join(configDirectory, folderName)
    let names: string[]
    try {
      names = readdirSync(folder)
    } catch {
      continue
    }
    for (const name of names.sort()) {
      // The glob's `*` may match nothing: a file named just `.ts` is a tool file too.
      if (!extensions.some((extension) => name === extension || path.extname(name) === extension)) continue
      const file = path.join(folder, name)
      if (isFile(file)) files.push(file)
    }
  }
  return files
}

/**
 * For a symbolic link that leads back to itself, the chain as `ls -l` would show it
 * (`a.ts -> b.ts -> a.ts`); undefined for anything else. Such a file cannot be imported, by
 * opencode or anyone: point the link at a real file, or delete it.
 */
export function symlinkLoop(file: string): string | undefined {
  if (errorCode(() => statOf(file)) !== "ELOOP") return undefined
  const chain = [file]
  let current = file
  // The kernel gives up after 40 links; so does this.
  for (let hop = 0; hop < 40; hop += 1) {
    let target: string
    try {
      target = path.resolve(path.dirname(current), readlinkSync(current))
    } catch {
      break
    }
    chain.push(target)
    if (chain.indexOf(target) < chain.length - 1) break
    current = target
  }
  const folder = path.dirname(file)
  return chain.map((entry) => (path.dirname(entry) === folder ? path.basename(entry) : entry)).join(" -> ")
}

/**
 * Symbolic links directly in `folder` that lead to a folder containing them (`loop -> .`,
 * `up -> ..`): following them never ends. opencode's glob looks only at the files directly in
 * tools/, so it skips them; each is returned with its target as written.
 */
export function folderLinkLoops(folder: string): Array<{ file: string; target: string }> {
  let names: string[]
  let real: string
  try {
    names = readdirSync(folder).sort()
    real = realpathSync(folder)
  } catch {
    return []
  }
  const loops: Array<{ file: string; target: string }> = []
  for (const name of names) {
    const file = path.join(folder, name)
    try {
      if (!lstatOf(file).isSymbolicLink() || !statOf(file).isDirectory()) continue
      const target = realpathSync(file)
      if (real === target || real.startsWith(target.endsWith(path.sep) ? target : target + path.sep))
        loops.push({ file, target: readlinkSync(file) })
    } catch {
      // A dangling link or a file loop: not a folder loop.
    }
  }
  return loops
}

export const TOOL_FOLDERS = ["tool", "tools"] as const
export const PLUGIN_FOLDERS = ["plugin", "plugins"] as const
export const SCANNED_EXTENSIONS = [".js", ".ts"] as const

// --- internal ---

/**
 * Whether opencode's glob lists `file` (Bun.Glob, files only, links followed; observed with Bun
 * 1.3.14): a regular file, a link loop, and a link to anything but a folder (a device such as
 * /dev/zero, a FIFO). A FIFO or device itself is not listed, nor a link that leads nowhere. What is
 * listed but not a regular file is then refused before it is read (IMPORT_FAILED, _source-file.ts),
 * where opencode would read it without end.
 */
function isFile(file: string): boolean {
  try {
    const stats = statOf(file)
    return stats.isFile() || (!stats.isDirectory() && lstatOf(file).isSymbolicLink())
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ELOOP"
  }
}

function errorCode(action: () => unknown): string | undefined {
  try {
    action()
    return undefined
  } catch (error) {
    return (error as NodeJS.ErrnoException).code
  }
}
