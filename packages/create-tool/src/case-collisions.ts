import { readdirSync } from "node:fs"
import { basename, dirname, join } from "node:path"

// macOS and Windows file systems do not tell `Hello.ts` from `hello.ts`: writing `hello.ts` beside
// `Hello.ts` replaces it there, and a repository holding both cannot be checked out there. Linux
// keeps both, so the same command would do different things on each system.

/** A file to write (`file`) whose name differs only in case from one already in its folder (`existing`). */
export type CaseCollision = { file: string; existing: string }

/** The files of `paths` whose folder holds a name that differs from theirs only in case, and not theirs. */
export function findCaseCollisions(paths: readonly string[]): CaseCollision[] {
  const collisions: CaseCollision[] = []
  for (const path of paths) {
    const folder = dirname(path)
    const name = basename(path)
    const names = namesIn(folder)
    // Both there already (Linux): the file itself is what gets written, as any existing file.
    if (names.includes(name)) continue
    const other = names.find((entry) => entry.toLowerCase() === name.toLowerCase())
    if (other !== undefined) collisions.push({ file: path, existing: join(folder, other) })
  }
  return collisions
}

// --- internal ---

function namesIn(folder: string): string[] {
  try {
    return readdirSync(folder)
  } catch {
    return []
  }
}
