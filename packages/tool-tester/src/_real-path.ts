import { realpathSync } from "node:fs"

/**
 * `file` with its links resolved, or as given when it cannot be (missing, no permission): the
 * caller meets the problem where it reads the file, with the path the user wrote.
 */
export function realPathOrAsIs(file: string): string {
  try {
    return realpathSync(file)
  } catch {
    return file
  }
}
