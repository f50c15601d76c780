// What a command says of a path the user gave as a folder when it cannot be used as one: a path
// that is not there reads differently from a file given by mistake.
import type { BigIntStats } from "node:fs"
import { statOf } from "./_file-stats.ts"

/**
 * Why `directory` cannot be used as a folder, in words that follow its path ("does not exist", "is a
 * file, not a folder", "is not a folder"), or undefined when it is a folder (through links).
 */
export function folderProblem(directory: string): string | undefined {
  let stats: BigIntStats
  try {
    stats = statOf(directory)
  } catch (error) {
    return (error as { code?: unknown }).code === "ENOENT" ? "does not exist" : "is not a folder"
  }
  if (stats.isDirectory()) return undefined
  return stats.isFile() ? "is a file, not a folder" : "is not a folder"
}
