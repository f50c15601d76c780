// The throw-away world one e2e run lives in: a fresh HOME with its XDG folders (config, data,
// cache, state) and TMPDIR under one temp folder that only this user can enter (0700), and a copy
// of the project so opencode's writes (`.opencode/.gitignore`, our plugin pre-install) never touch
// the user's files: links materialised, `node_modules` linked (copy-folder.ts), with what opencode
// and Bun read above the project, up to its git worktree root or outside git the highest folder of
// the user's own (copy-above.ts), and made a git worktree root so opencode reads no config above
// that (worktree-root.ts).

import { randomUUID } from "node:crypto"
import { existsSync } from "node:fs"
import { chmod, lstat, mkdir, mkdtemp, rm, rmdir } from "node:fs/promises"
import { tmpdir } from "node:os"
import { dirname, join, relative, resolve } from "node:path"
import { ToolTesterError } from "../errors.ts"
import { guard } from "../runtime/reaper.ts"
import { copyAbove, topAbove } from "./copy-above.ts"
import { copyFolder } from "./copy-folder.ts"
import { makeWorktreeRoot } from "./worktree-root.ts"

export interface Sandbox {
  /** The one temp folder holding everything below; deleted by `dispose()`. */
  readonly root: string
  readonly home: string
  readonly configHome: string
  readonly dataHome: string
  readonly cacheHome: string
  readonly stateHome: string
  readonly tmp: string
  /** opencode's global config dir (`$XDG_CONFIG_HOME/opencode`). */
  readonly globalConfigDirectory: string
  /** The project folder opencode runs in: the copy, or the user's folder when not copying. */
  readonly project: string
  /** A value put in the environment of opencode, to find its leftover processes. */
  readonly marker: string
  /** Registers an undo step for a change made outside `root` (in-place runs). */
  onDispose(undo: () => Promise<void>): void
  /** Runs the undo steps (latest first) and deletes `root`. Safe to call twice. */
  dispose(): Promise<void>
}

export interface SandboxOptions {
  directory: string
  copyProject: boolean
  /** Parent of the temp folder (default: the OS temp folder); made when missing, and removed by dispose() once empty. */
  tempDirectory?: string
  /** Start of the temp folder's and the marker's names (default `tool-tester-e2e-`). */
  prefix?: string
  /** The environment opencode will run with (its PATH says whether it finds git); default this process's. */
  env?: Record<string, string | undefined>
}

export async function createSandbox(options: SandboxOptions): Promise<Sandbox> {
  const directory = resolve(options.directory)
  const stats = await lstat(directory).catch(() => undefined)
  if (stats === undefined || !stats.isDirectory()) {
    throw new ToolTesterError("PATH_NOT_FOUND", `The project folder ${directory} does not exist or is not a folder.`, {
      data: { path: directory },
    })
  }
  const parent = resolve(options.tempDirectory ?? tmpdir())
  const prefix = options.prefix ?? "tool-tester-e2e-"
  let root: string
  // The first of the folders made for `parent` (none when it existed): they go with the run.
  let made: string | undefined
  try {
    made = await mkdir(parent, { recursive: true })
    root = await mkdtemp(join(parent, prefix))
  } catch (error) {
    await removeMadeFolders(parent, made)
    // A TMPDIR that is a file, or a folder this user cannot write: Node's EEXIST or EACCES said
    // nothing of which folder that was, nor of how to choose another.
    const instead =
      options.tempDirectory === undefined
        ? "point TMPDIR (TEMP on Windows) to a folder you can write to"
        : "pass a tempDirectory you can write to"
    throw new ToolTesterError(
      "PATH_NOT_FOUND",
      `The temporary folder ${parent} cannot hold the run's throw-away folder (${(error as NodeJS.ErrnoException).code ?? String(error)}): ${instead}.`,
      { data: { path: parent }, cause: error },
    )
  }
  // mkdtemp makes it 0700 already; said here, because everything private below relies on it.
  await chmod(root, 0o700)
  const undoSteps: Array<() => Promise<void>> = []
  let disposed = false
  const home = join(root, "home")
  // The copy's top stands for the project's git worktree root (outside git, the highest folder of
  // the user's own above it), with what is read above the project (copy-above.ts).
  const top = join(root, "project")
  const above = options.copyProject ? topAbove(directory) : directory
  const marker = `${prefix}${randomUUID()}`
  // Whatever ends this process (SIGKILL included), nothing started with the marker keeps running
  // and the folder goes, with the copies it holds (eval's copy of the user's auth.json among them).
  const guarded = guard({ mark: marker, paths: [root] })
  const sandbox: Sandbox = {
    root,
    home,
    configHome: join(home, ".config"),
    dataHome: join(home, ".local", "share"),
    cacheHome: join(home, ".cache"),
    stateHome: join(home, ".local", "state"),
    tmp: join(root, "tmp"),
    globalConfigDirectory: join(home, ".config", "opencode"),
    project: options.copyProject ? join(top, relative(above, directory)) : directory,
    marker,
    onDispose: (undo) => {
      undoSteps.push(undo)
    },
    dispose: async () => {
      if (disposed) return
      disposed = true
      for (const undo of undoSteps.reverse()) await undo().catch(() => undefined)
      await rm(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 })
      await removeMadeFolders(parent, made)
      guarded.release()
    },
  }
  try {
    for (const folder of [sandbox.globalConfigDirectory, sandbox.dataHome, sandbox.cacheHome, sandbox.stateHome]) {
      await mkdir(folder, { recursive: true })
    }
    await mkdir(sandbox.tmp)
    if (options.copyProject) {
      await copyAbove(directory, above, top, root)
      await copyProject(directory, sandbox.project)
      await makeWorktreeRoot(top, options.env ?? process.env)
    }
  } catch (error) {
    await sandbox.dispose()
    throw error
  }
  return sandbox
}

/** Copies a folder with its links materialised and `node_modules` folders linked (copy-folder.ts). */
export async function copyProject(source: string, target: string): Promise<void> {
  await copyFolder(source, target)
}

/** The `.opencode` folders opencode scans from the project up to its git worktree (or `/`). */
export function projectConfigDirectories(project: string): string[] {
  const folders: string[] = []
  let directory = project
  for (;;) {
    const candidate = join(directory, ".opencode")
    if (existsSync(candidate)) folders.push(candidate)
    const parent = dirname(directory)
    if (existsSync(join(directory, ".git")) || parent === directory) return folders
    directory = parent
  }
}

// --- internal ---

/**
 * Removes the folders `mkdir -p` made for `parent` (`first` is the highest of them), deepest first,
 * each only while it is empty: another run given the same folder may be using it now, and the
 * caller's own folders are never touched.
 */
async function removeMadeFolders(parent: string, first: string | undefined): Promise<void> {
  if (first === undefined) return
  const top = resolve(first)
  for (let folder = parent; ; folder = dirname(folder)) {
    const removed = await rmdir(folder).then(
      () => true,
      () => false,
    )
    // Never above the highest one made, even should its name be spelt otherwise.
    if (!removed || folder.length <= top.length || dirname(folder) === folder) return
  }
}
