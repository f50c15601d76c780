import { accessSync, constants } from "node:fs"
import { statOf } from "../_file-stats.ts"
import { folderCreationProblem } from "../_make-folders.ts"
import os from "node:os"
import path from "node:path"
import { privateUserTempDirectory, userTempDirectory } from "../runtime/cache-directory.ts"

/**
 * Where tool-tester saves truncated outputs unless told otherwise: never your real opencode data,
 * and never a folder shared with other users: `<os temp>/opencode-tool-tester-<uid>/data`, inside
 * a folder only you can enter (0700; the files are 0600).
 */
export function defaultDataDirectory(): string {
  return path.join(userTempDirectory(), "data")
}

/** Before writing under `file`: when it is in the per-user temporary folder, that folder is made private, or refused (TEMP_FOLDER_UNSAFE). */
export function securePrivateParent(file: string): void {
  const relative = path.relative(userTempDirectory(), file)
  if (relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative)) privateUserTempDirectory()
}

/** opencode's own data folder (`$XDG_DATA_HOME/opencode`, else `~/.local/share/opencode`), to pass as `dataDirectory` on purpose. */
export function opencodeDataDirectory(
  env: Record<string, string | undefined> = process.env,
  home = os.homedir(),
): string {
  return path.join(env["XDG_DATA_HOME"] || path.join(home, ".local", "share"), "opencode")
}

/**
 * Why truncated outputs could not be saved under `directory` (in `directory/tool-output`), or
 * undefined when they can: the nearest part of that path that exists must be a folder this
 * process can write to (the rest is created). Checked before a run, so a bad data folder fails
 * at once rather than after the tool ran.
 */
export function dataDirectoryProblem(directory: string): string | undefined {
  let existing = path.join(path.resolve(directory), "tool-output")
  for (;;) {
    try {
      if (!statOf(existing).isDirectory()) return `${existing} is a file, not a folder`
      break
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      // ENOTDIR: a file further up, found on the way up.
      if (code !== "ENOENT" && code !== "ENOTDIR") return `${existing} cannot be read (${code ?? String(error)})`
      const parent = path.dirname(existing)
      if (parent === existing) return `no part of ${directory} exists`
      existing = parent
    }
  }
  try {
    accessSync(existing, constants.W_OK | constants.X_OK)
  } catch (error) {
    return `${existing} cannot be written to (${(error as NodeJS.ErrnoException).code ?? String(error)})`
  }
  return folderCreationProblem(path.join(path.resolve(directory), "tool-output"))
}
