import { randomBytes } from "node:crypto"
import { constants } from "node:fs"
import { copyFile, link, mkdir, rename, rm, unlink, writeFile } from "node:fs/promises"
import { basename, dirname, join } from "node:path"
import { CreateToolError } from "./errors.ts"

// Writes a set of files all or nothing. Every file is first written in full to a temporary file
// next to its target (named so that opencode's `tools/*.{js,ts}` scan never matches it); only when
// all are written are they moved into place. New files are placed without replacing anything that
// appeared meanwhile, replaced files are backed up until the end, and on any failure every file,
// backup and folder this call created is removed again.

export type FileToWrite = {
  path: string
  content: string
  /** True when the file exists and is meant to be replaced (--force, or an updated package.json). */
  replace: boolean
}

export async function writeFilesAtomically(files: readonly FileToWrite[]): Promise<void> {
  const suffix = randomBytes(4).toString("hex")
  const createdDirectories: string[] = []
  const temporaries: string[] = []
  const placed: string[] = []
  const backups: Array<{ path: string; backup: string }> = []
  let current = { path: "", phase: "folder" as "folder" | "file" | "place" }
  try {
    for (const directory of new Set(files.map((file) => dirname(file.path)))) {
      current = { path: directory, phase: "folder" }
      const created = await mkdir(directory, { recursive: true })
      if (created !== undefined) createdDirectories.push(created)
    }
    const staged: Array<{ file: FileToWrite; temporary: string }> = []
    for (const file of files) {
      current = { path: file.path, phase: "file" }
      const temporary = join(dirname(file.path), `.${basename(file.path)}.${suffix}.tmp`)
      await writeFile(temporary, file.content, { flag: "wx" })
      temporaries.push(temporary)
      staged.push({ file, temporary })
    }
    for (const { file, temporary } of staged) {
      current = { path: file.path, phase: "place" }
      if (file.replace) {
        const backup = join(dirname(file.path), `.${basename(file.path)}.${suffix}.backup`)
        await copyFile(file.path, backup)
        backups.push({ path: file.path, backup })
        await rename(temporary, file.path)
      } else {
        await placeWithoutReplacing(temporary, file.path)
        placed.push(file.path)
        await unlink(temporary)
      }
    }
  } catch (error) {
    await rollBack({ createdDirectories, temporaries, placed, backups })
    throw writeError(error, current.path, current.phase)
  }
  await Promise.all(backups.map(({ backup }) => rm(backup, { force: true })))
}

// --- internal ---

/** Hard-links `from` to `to`, failing with EEXIST rather than replacing; copies where links are not supported. */
async function placeWithoutReplacing(from: string, to: string): Promise<void> {
  try {
    await link(from, to)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EXDEV" && code !== "ENOSYS") throw error
    await copyFile(from, to, constants.COPYFILE_EXCL)
  }
}

async function rollBack(state: {
  createdDirectories: string[]
  temporaries: string[]
  placed: string[]
  backups: Array<{ path: string; backup: string }>
}): Promise<void> {
  const ignore = () => {}
  for (const path of state.placed) await rm(path, { force: true }).catch(ignore)
  for (const { path, backup } of state.backups) await rename(backup, path).catch(ignore)
  for (const path of state.temporaries) await rm(path, { force: true }).catch(ignore)
  for (const directory of state.createdDirectories.reverse()) {
    await rm(directory, { recursive: true, force: true }).catch(ignore)
  }
}

function writeError(error: unknown, path: string, phase: "folder" | "file" | "place"): CreateToolError {
  const code = (error as NodeJS.ErrnoException).code
  if (code === "EEXIST" && phase === "place") {
    return new CreateToolError("FILE_EXISTS", `${path} appeared while writing: nothing was written; run again.`, {
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
    `Cannot write ${path}: ${reason}. Nothing was written: choose another folder or fix its permissions.`,
    { data: { path, ...(code === undefined ? {} : { errorCode: code }) }, cause: error },
  )
}
