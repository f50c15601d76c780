import { existsSync, readdirSync } from "node:fs"
import { basename, dirname, join } from "node:path"

// macOS and Windows file systems do not tell `Hello.ts` from `hello.ts`: writing `hello.ts` beside
// `Hello.ts` replaces it there, and a repository holding both cannot be checked out there. Linux
// keeps both, so the same command would do different things on each system.

/** A file to write (`file`) whose name differs only in case from one already in its folder (`existing`). */
export type CaseCollision = { file: string; existing: string }

/**
 * The files of `paths`, and the folders to be made for them (a plugin's package folder), whose
 * folder holds a name that differs from theirs only in case, and not theirs.
 */
export function findCaseCollisions(paths: readonly string[]): CaseCollision[] {
  const collisions = new Map<string, CaseCollision>()
  for (const path of paths) {
    for (let entry = path; dirname(entry) !== entry; entry = dirname(entry)) {
      const folder = dirname(entry)
      const name = basename(entry)
      const names = namesIn(folder)
      // Both there already (Linux): the file itself is what gets written, as any existing file.
      if (names.includes(name)) break
      const other = names.find((existing) => existing.toLowerCase() === name.toLowerCase())
      if (other !== undefined) collisions.set(entry, { file: entry, existing: join(folder, other) })
      // A folder that exists was checked as the entry of its own parent; above it nothing is made.
      if (names.length > 0 || existsSync(folder)) break
    }
  }
  return [...collisions.values()]
}

// --- internal ---

function namesIn(folder: string): string[] {
  try {
    return readdirSync(folder)
  } catch {
    return []
  }
}
