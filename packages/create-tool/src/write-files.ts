import {
  accessSync,
  chmodSync,
  chownSync,
  closeSync,
  constants,
  copyFileSync,
  linkSync,
  openSync,
  realpathSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from "node:fs"
import { basename, dirname, join } from "node:path"
import { definedFields } from "./_defined-fields.ts"
import { statOf } from "./_file-stats.ts"
import { makeFolders } from "./_make-folders.ts"
import { CreateToolError } from "./errors.ts"
import { printable } from "./printable.ts"

// Writes a set of files all or nothing. Every file is first written in full to a temporary file
// next to its target (named so that opencode's `tools/*.{js,ts}` scan never matches it); only when
// all are written are they moved into place. New files are placed without replacing anything that
// appeared meanwhile, replaced files are backed up until the end, and on any failure every file,
// backup and folder this call created is removed again. A replaced file is written where it really
// is, through a symlink (which stays a symlink), and keeps its mode and, where allowed, its owner; a
// read-only one is refused before anything is written. Synchronous calls, as create-vite makes: for
// a handful of small files they are faster than promises.

export type FileToWrite = {
  path: string
  content: string
  /** True when the file exists and is meant to be replaced (--force, or an updated package.json). */
  replace: boolean
}

export async function writeFilesAtomically(files: readonly FileToWrite[]): Promise<void> {
  const targets = files.map((file) => (file.replace ? replacedFile(file.path) : { path: file.path, stats: undefined }))
  // Unique enough for files that live a few milliseconds; node:crypto would add 20 ms to every run.
  const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`
  const createdDirectories: string[] = []
  const temporaries: string[] = []
  const placed: string[] = []
  const backups: Array<{ path: string; backup: string }> = []
  let current = { path: "", phase: "folder" as "folder" | "file" | "place" }
  try {
    for (const directory of new Set(files.map((file) => dirname(file.path)))) {
      current = { path: directory, phase: "folder" }
      const created = makeFolders(directory)
      if (created !== undefined) createdDirectories.push(created)
    }
    const staged: Array<{ file: FileToWrite; target: string; temporary: string }> = []
    for (const [index, file] of files.entries()) {
      const { path: target, stats } = targets[index]!
      current = { path: file.path, phase: "file" }
      const temporary = join(dirname(target), `.${basename(target)}.${suffix}.tmp`)
      writeTemporary(temporary, file.content, stats === undefined ? 0o666 : stats.mode & 0o777, temporaries)
      if (stats !== undefined) keepModeAndOwner(temporary, stats)
      staged.push({ file, target, temporary })
    }
    for (const { file, target, temporary } of staged) {
      current = { path: file.path, phase: "place" }
      if (file.replace) {
        const backup = join(dirname(target), `.${basename(target)}.${suffix}.backup`)
        copyFileSync(target, backup)
        backups.push({ path: target, backup })
        renameSync(temporary, target)
      } else {
        placeWithoutReplacing(temporary, file.path)
        placed.push(file.path)
        unlinkSync(temporary)
      }
    }
  } catch (error) {
    rollBack({ createdDirectories, temporaries, placed, backups })
    throw writeError(error, current.path, current.phase)
  }
  for (const { backup } of backups) rmSync(backup, { force: true })
}

// --- internal ---

/** What a replaced file's successor keeps: its permissions and owner. */
type Ownership = { mode: number; uid: number; gid: number }

/**
 * Where a file to replace really is (a symlink's target, so that the link stays), and its stats; or
 * an UNWRITABLE error when it may not be written. A file without any write bit counts as read-only
 * whoever runs create-tool: root passes access(W_OK) for every file, and a file made read-only was
 * made so on purpose (as rm asks before removing one).
 */
function replacedFile(path: string): { path: string; stats: Ownership } {
  let target: string
  let stats: Ownership
  try {
    target = realpathSync(path)
    const { mode, uid, gid } = statOf(target)
    stats = { mode: Number(mode), uid: Number(uid), gid: Number(gid) }
  } catch (error) {
    throw writeError(error, path, "file")
  }
  const shown = target === path ? printable(path) : `${printable(path)} (a link to ${printable(target)})`
  if ((stats.mode & 0o222) === 0) {
    throw new CreateToolError(
      "UNWRITABLE",
      `Cannot write ${shown}: the file is read-only. Nothing was written: make it writable (chmod u+w) or move it away, and run again.`,
      { data: { path, target, reason: "read-only" } },
    )
  }
  try {
    accessSync(target, constants.W_OK)
  } catch (error) {
    throw writeError(error, path, "file", shown)
  }
  return { path: target, stats }
}

/** Gives the new file the replaced one's permissions and, where the system allows it, its owner. */
function keepModeAndOwner(path: string, stats: Ownership): void {
  try {
    chownSync(path, stats.uid, stats.gid)
  } catch {
    // Only root may give a file away: anyone else's file that is writable to them becomes theirs.
  }
  // After chown, which clears the set-user-ID and set-group-ID bits.
  chmodSync(path, stats.mode & 0o7777)
}

/**
 * Creates `path` (never over an existing file) and writes `content` to it. The file is added to
 * `temporaries` as soon as it exists, before its content: a write that fails part way (a full disk)
 * leaves an empty or partial file, which the roll-back must remove like any other.
 */
function writeTemporary(path: string, content: string, mode: number, temporaries: string[]): void {
  const descriptor = openSync(path, "wx", mode)
  temporaries.push(path)
  try {
    writeFileSync(descriptor, content)
  } finally {
    closeSync(descriptor)
  }
}

/** Hard-links `from` to `to`, failing with EEXIST rather than replacing; copies where links are not supported. */
function placeWithoutReplacing(from: string, to: string): void {
  try {
    linkSync(from, to)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EXDEV" && code !== "ENOSYS") throw error
    copyFileSync(from, to, constants.COPYFILE_EXCL)
  }
}

function rollBack(state: {
  createdDirectories: string[]
  temporaries: string[]
  placed: string[]
  backups: Array<{ path: string; backup: string }>
}): void {
  const attempt = (action: () => void) => {
    try {
      action()
    } catch {
      // Best effort: undo as much as possible, then report the original error.
    }
  }
  for (const path of state.placed) attempt(() => rmSync(path, { force: true }))
  for (const { path, backup } of state.backups) attempt(() => renameSync(backup, path))
  for (const path of state.temporaries) attempt(() => rmSync(path, { force: true }))
  for (const directory of state.createdDirectories.reverse()) {
    attempt(() => rmSync(directory, { recursive: true, force: true }))
  }
}

function writeError(
  error: unknown,
  path: string,
  phase: "folder" | "file" | "place",
  shown = printable(path),
): CreateToolError {
  const code = (error as NodeJS.ErrnoException).code
  if (code === "EEXIST" && phase === "place") {
    return new CreateToolError("FILE_EXISTS", `${shown} appeared while writing: nothing was written; run again.`, {
      data: { path },
      cause: error,
    })
  }
  const reasons: Record<string, string> = {
    EACCES: "permission denied",
    EPERM: "operation not permitted",
    EROFS: "the file system is read-only",
    ENOTDIR: "part of that path is a file, not a folder",
    EEXIST: "a file is in the way of a folder there",
    ENOSPC: "no space left on the device",
    EISDIR: "a folder is in the way",
  }
  const reason = (code !== undefined && reasons[code]) || (error as Error).message
  return new CreateToolError(
    "UNWRITABLE",
    `Cannot write ${shown}: ${printable(reason)}. Nothing was written: choose another folder or fix its permissions.`,
    { data: { path, ...definedFields({ errorCode: code }) }, cause: error },
  )
}
