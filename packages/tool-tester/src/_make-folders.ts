import { mkdirSync, rmdirSync } from "node:fs"
import path from "node:path"
import { statOf } from "./_file-stats.ts"

/**
 * `mkdirSync(folder, { recursive: true })`, made one folder at a time: Node's recursive mkdir never
 * returns for a path under /proc or /sys (an endless loop, seen as root with Node 20.20), where a
 * user may still name a file. Throws as mkdir does (ENOENT, ENOTDIR when part of the path is a file,
 * EEXIST when the folder is one, EACCES). Returns the first folder it made, as the recursive form
 * does, or undefined when the folder was there.
 */
export function makeFolders(folder: string): string | undefined {
  const missing = missingFolders(folder)
  for (const each of missing) makeFolder(each)
  return missing[0]
}

/**
 * Why `folder` could not be made, or undefined when it can: its missing folders are made one by one
 * and removed again. access() says yes to root anywhere, in /proc and /sys too, where nothing can be
 * created: a file written only after a long run checks its folder this way first.
 */
export function folderCreationProblem(folder: string): string | undefined {
  const made: string[] = []
  try {
    for (const each of missingFolders(folder)) {
      makeFolder(each)
      made.push(each)
    }
    return undefined
  } catch (error) {
    return `${folder} cannot be created (${(error as NodeJS.ErrnoException).code ?? String(error)})`
  } finally {
    for (const each of made.reverse()) {
      try {
        rmdirSync(each)
      } catch {
        // Something else wrote there meanwhile: what it made stays.
      }
    }
  }
}

// --- internal ---

/**
 * The folders to make, outermost first: those below the nearest part of the path that exists, as
 * recursive mkdir makes them. A file there is left for mkdir to refuse (ENOTDIR, or EEXIST when
 * the folder itself is a file), so the error is the one the recursive form gives.
 */
function missingFolders(folder: string): string[] {
  const target = path.resolve(folder)
  const missing: string[] = []
  for (let current = target; !exists(current); current = path.dirname(current)) {
    missing.unshift(current)
    if (path.dirname(current) === current) break
  }
  if (missing.length === 0 && !isFolder(target)) missing.push(target)
  return missing
}

function makeFolder(folder: string): void {
  try {
    mkdirSync(folder)
  } catch (error) {
    // Made meanwhile by another process: as good as made here.
    if ((error as NodeJS.ErrnoException).code !== "EEXIST" || !isFolder(folder)) throw error
  }
}

function exists(file: string): boolean {
  try {
    statOf(file)
    return true
  } catch {
    return false
  }
}

function isFolder(folder: string): boolean {
  try {
    return statOf(folder).isDirectory()
  } catch {
    return false
  }
}
