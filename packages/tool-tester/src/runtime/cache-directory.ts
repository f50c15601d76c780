// Where tool-tester keeps what it can reuse (module loading's prepared files) and the truncated
// outputs it saves by default: a folder of the user's own under the temporary folder (as tsx
// does), `opencode-tool-tester-<uid>`, that only its user can enter (0700, files 0600). Its name
// is known in advance, so another user could make it first: one not owned by this user, or that
// is a link, is refused (TEMP_FOLDER_UNSAFE) rather than used, since what is read from it runs.
// On Windows the temporary folder is already the user's own (`%LOCALAPPDATA%\Temp`).
import { chmodSync, mkdirSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { lstatOf } from "../_file-stats.ts"
import { ToolTesterError } from "../errors.ts"

/** The folder module loading keeps its `kind` of reusable files in, made private first (not tool-tester's per-user cache: that is opencode/opencode-binary.ts `toolTesterCacheDirectory`). */
export function moduleCacheDirectory(kind: "analyzed" | "modules"): string {
  try {
    return path.join(privateUserTempDirectory(), kind)
  } catch (error) {
    if (ToolTesterError.isInstance(error)) throw error
    // A temporary folder that cannot hold the folder (TMPDIR a file, read-only): what to do, not a raw mkdir error.
    const reason = (error as NodeJS.ErrnoException).code ?? String(error)
    throw new Error(
      `cannot write its prepared copy to ${userTempDirectory()} (${reason}): make the temporary folder writable, or point TMPDIR to one that is`,
    )
  }
}

/** `<os temp>/opencode-tool-tester-<uid>` (by user name where there are no uids), not made yet. */
export function userTempDirectory(): string {
  return path.join(os.tmpdir(), `opencode-tool-tester-${userKey()}`)
}

/** {@link userTempDirectory}, made private (0700) on first use; throws TEMP_FOLDER_UNSAFE when another user owns it. */
export function privateUserTempDirectory(): string {
  const folder = userTempDirectory()
  if (!checked.has(folder)) {
    ensurePrivateFolder(folder, process.getuid?.())
    checked.add(folder)
  }
  return folder
}

/**
 * Makes `folder` (and its parents) if missing, as 0700; then it must be a real folder owned by
 * `uid` (when the platform has uids), and is made 0700 if it was more open.
 */
export function ensurePrivateFolder(folder: string, uid: number | undefined): void {
  mkdirSync(folder, { recursive: true, mode: 0o700 })
  if (uid === undefined || process.platform === "win32") return
  const stats = lstatOf(folder)
  const problem = stats.isSymbolicLink()
    ? "is a link"
    : !stats.isDirectory()
      ? "is not a folder"
      : stats.uid !== BigInt(uid)
        ? `belongs to another user (uid ${stats.uid})`
        : undefined
  if (problem !== undefined) {
    throw new ToolTesterError(
      "TEMP_FOLDER_UNSAFE",
      `${folder} ${problem}: tool-tester keeps files there that it runs and reads back, so it only uses a folder of your own. Remove it, or point TMPDIR to a folder of your own`,
      { data: { folder } },
    )
  }
  if ((stats.mode & 0o077n) !== 0n) chmodSync(folder, 0o700)
}

// --- internal ---

const checked = new Set<string>()

function userKey(): string {
  const uid = process.getuid?.()
  if (uid !== undefined && uid >= 0) return String(uid)
  try {
    return os.userInfo().username.replace(/[^A-Za-z0-9._-]/g, "_")
  } catch {
    return "user"
  }
}
