import { mkdirSync, rmdirSync } from "node:fs"
import path from "node:path"
import { statOf } from "./_file-stats.ts"

/**
 * `mkdirSync(folder, { recursive: true })`, made one folder at a time: Node's recursive mkdir never
 * returns for a path under /proc or /sys (an endless loop, seen as root with Node 20.20), where a
 * user may still name a file. Throws as mkdir does (ENOENT, ENOTDIR, EACCES). Returns the first
 * folder it made, as the recursive form does, or undefined when the folder was there.
 */
export function makeFolders(folder: string): string | undefined {
  const missing: string[] = []
  for (let current = path.resolve(folder); !isFolder(current); current = path.dirname(current)) {
    missing.unshift(current)
    if (path.dirname(current) === current) break
  }
  for (const each of missing) {
    try {
      mkdirSync(each)
    } catch (error) {
      // Made meanwhile by another process: as good as made here.
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || !isFolder(each)) throw error
    }
  }
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
    for (let current = path.resolve(folder); !isFolder(current); current = path.dirname(current)) {
      made.unshift(current)
      if (path.dirname(current) === current) break
    }
    const missing = [...made]
    made.length = 0
    for (const each of missing) {
      mkdirSync(each)
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

function isFolder(folder: string): boolean {
  try {
    return statOf(folder).isDirectory()
  } catch {
    return false
  }
}
