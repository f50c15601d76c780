// Which files a save should reload the project for, and the watcher. fs.watch was measured
// against chokidar 4 (the last that runs on Node 20): it reports a save in ~2.5 ms (median of 30)
// and needs no dependency; chokidar missed same-size rewrites in that run.
import type { Dirent, FSWatcher } from "node:fs"
import { existsSync, readdirSync, watch } from "node:fs"
import path from "node:path"
import { isRegularFile, statOf } from "../_file-stats.ts"
import { realPathOrAsIs } from "../_real-path.ts"
import { configDirectories } from "../discovery/config-dirs.ts"
import { PLUGIN_FOLDERS, TOOL_FOLDERS } from "../discovery/scan.ts"
import { findWorktree } from "../discovery/worktree.ts"
import type { ToolProject } from "../types.ts"
import { listedPluginFiles } from "./listed-plugin-files.ts"

/**
 * Folders watched with everything below them, folders watched for their own entries only, and
 * single files (a plugin passed by path), watched through their folder for that name only. `read`:
 * the files the load read (its modules, the config files): one gone when the watch takes it on was
 * removed since the load read it, which no watch saw.
 */
export type WatchTargets = { deep: string[]; shallow: string[]; files?: string[]; read?: string[] }

/** A save is a burst of events (truncate, write, rename): they are reported once, this long after the last. */
const SETTLE_MS = 15

/**
 * What opencode reads: the tool and plugin folders of every config folder, with what they import
 * from below them; each config folder itself (opencode.json, a tools/ folder that appears) and the
 * project folder (its opencode.json). Never node_modules: it is not watched at all.
 */
export function watchTargets(
  project: Pick<ToolProject, "configDirectories" | "directory" | "configFiles">,
  /** Plugin modules loaded by path (`--plugin ./x.ts`, a path in opencode.json), wherever they are. */
  pluginFiles: string[] = [],
  /**
   * The module files the last load imported (ToolProject.modules): the helpers the tools and
   * plugins import, wherever they are (they were imported by a path or a link the user wrote).
   */
  modules: readonly string[] = [],
  /**
   * Plugin paths no load imported (a `--plugin` path or one opencode.json lists, missing or failed):
   * not taken as read, so that one never there is not reported as removed.
   */
  unloaded: readonly string[] = [],
): WatchTargets {
  const deep: string[] = []
  const shallow = new Set<string>([project.directory])
  for (const { path: folder } of project.configDirectories) {
    shallow.add(folder)
    for (const name of [...TOOL_FOLDERS, ...PLUGIN_FOLDERS]) deep.push(path.join(folder, name))
  }
  for (const file of project.configFiles) shallow.add(path.dirname(file))
  // A helper in a tools/ folder is already watched with it: one watch, so one event a save.
  // Imports are named by their real paths: a folder reached through a link is compared as both.
  const folders = deep.flatMap((folder) => [folder, realPathOrAsIs(folder)])
  const helpers = modules.filter((file) => !folders.some((folder) => isInside(file, folder)))
  const files = [...new Set([...pluginFiles, ...helpers])].filter(
    (file) => path.isAbsolute(file) && isProjectFile(file),
  )
  const skipped = new Set(unloaded)
  const read = [...new Set([...modules, ...project.configFiles])].filter(
    (file) => path.isAbsolute(file) && isProjectFile(file) && !skipped.has(file),
  )
  return { deep, shallow: [...shallow], files, read }
}

/**
 * What `dev` and `run --watch` watch in a project: its config folders as opencode finds them (from
 * `directory`, with the user-level ones unless `global` is false), the config files a load read or
 * that are there now, and the plugins loaded by path: those the load imported, those the config
 * files list by path, and the `--plugin` paths, whether or not they imported (by their spec), so
 * that the save that fixes one reloads; and the module files the last load imported, transitively
 * (a helper in lib/ or src/ a tool imports, one that failed to compile included).
 */
export function projectWatchTargets(options: {
  directory: string
  global: boolean
  env?: NodeJS.ProcessEnv
  /** The config files the last load read (none before a load, or when the load is elsewhere). */
  configFiles?: string[]
  /** The plugins the last load imported. */
  loadedPlugins?: ReadonlyArray<{ file: string }>
  /** The module files the last load imported (ToolProject.modules). */
  modules?: readonly string[]
  /** The `--plugin` specs (a path among them is absolute: the CLI resolves it). */
  pluginSpecs: readonly string[]
}): WatchTargets {
  const { directory } = options
  const worktree = findWorktree(directory)
  const folders = configDirectories({
    directory,
    worktree,
    global: options.global,
    ...(options.env === undefined ? {} : { env: options.env }),
  })
  const listed = listedPluginFiles({ directory, worktree, directories: folders })
  const loaded = (options.loadedPlugins ?? []).map((plugin) => plugin.file)
  const named = [...listed.pluginFiles, ...options.pluginSpecs.filter((spec) => path.isAbsolute(spec))]
  const configFiles = [...(options.configFiles ?? []), ...listed.configFiles]
  return watchTargets(
    { directory, configDirectories: folders, configFiles },
    [...loaded, ...named],
    options.modules,
    named.filter((file) => !loaded.includes(file)),
  )
}

/** A watch on a project's files, from watchProject. */
export type ProjectWatcher = {
  /**
   * Watches `targets` from now on (a load may read other folders than the last): the new watches
   * start before the old ones stop, and a burst of saves still settling is reported as before, so a
   * save made while the watches are replaced is not lost. `since`: when the load (or call) that
   * named the targets began, as Date.now() gives it: a file watched from now on that was saved
   * since then is reported as saved, for no watch saw that save and the load may have read the file
   * before it (a helper a save just imported, saved again while that reload ran); and so is a file
   * the load read that no earlier load did and that is gone now (removed while the load ran).
   */
  retarget: (targets: WatchTargets, since?: number) => void
  stop: () => void
}

/**
 * Watches the targets and reports each burst of saves (and removals) once, with the files saved.
 * `since`: when the first load (or run) began, as Date.now() gives it: a file the targets name (a
 * tool, a plugin, a module, a config file) saved since then is reported as saved, for no watch
 * existed to see that save and the load may have read the file before it; and a file the load read
 * that is gone now (removed while it ran) is reported too, so that the next load drops it. The same
 * rule as retarget's.
 */
export function watchProject(
  targets: WatchTargets,
  onChange: (files: string[]) => void,
  since?: number,
): ProjectWatcher {
  let pending = new Set<string>()
  let timer: NodeJS.Timeout | undefined
  let stopped = false
  const changed = (file: string) => {
    if (stopped || !isProjectFile(file)) return
    pending.add(file)
    clearTimeout(timer)
    timer = setTimeout(() => {
      const files = [...pending]
      pending = new Set()
      onChange(files)
    }, SETTLE_MS)
  }
  let watchers = watchAll(targets, changed)
  let files = new Set(targets.files ?? [])
  let read = new Set(targets.read ?? [])
  // Read once the watches are set: a save from now on is an event, one before it a file time, and
  // a removal before it a file that is not there.
  if (since !== undefined)
    for (const file of [...savedSince(watchedFiles(targets), since), ...goneNow(read)]) changed(file)
  // The watches replaced by retarget, stopped SETTLE_MS later: what they had seen but not yet
  // passed on (an event the loop has not read) is read first. On Linux a watch of the same folder
  // or file shares the old one's kernel watch, so the new one gets it too.
  let retired: FSWatcher[] = []
  let retiring: NodeJS.Timeout | undefined
  return {
    retarget: (next, since) => {
      if (stopped) return
      retired.push(...watchers)
      watchers = watchAll(next, changed)
      clearTimeout(retiring)
      retiring = setTimeout(() => {
        for (const watcher of retired) watcher.close()
        retired = []
      }, SETTLE_MS)
      const added = (next.files ?? []).filter((file) => !files.has(file))
      files = new Set(next.files ?? [])
      // A file the last loads read already is not: were it gone, the watch on it saw it go (or an
      // earlier retarget said so), and a load that still names it (one whose import failed) would
      // otherwise reload for ever.
      const newlyRead = (next.read ?? []).filter((file) => !read.has(file))
      read = new Set(next.read ?? [])
      if (since !== undefined) for (const file of [...savedSince(added, since), ...goneNow(newlyRead)]) changed(file)
    },
    stop: () => {
      stopped = true
      clearTimeout(timer)
      clearTimeout(retiring)
      for (const watcher of [...retired, ...watchers]) watcher.close()
    },
  }
}

// --- internal ---

/** Starts a watch on each target, reporting the path of every entry that changes under it to `changed`. */
function watchAll(targets: WatchTargets, changed: (file: string) => void): FSWatcher[] {
  const watchers: FSWatcher[] = []
  const add = (folder: string, recursive: boolean) => {
    if (!existsSync(folder)) return
    try {
      const watcher = watch(folder, { recursive }, (_event, name) => {
        // In a config or project folder itself, only what opencode reads there counts (not a README).
        if (name !== null && (recursive || SHALLOW_NAMES.has(name.toString())))
          changed(path.join(folder, name.toString()))
      })
      watcher.on("error", () => watcher.close())
      watchers.push(watcher)
    } catch {
      // A folder that vanished between the check and the watch: the next reload watches again.
    }
  }
  for (const folder of new Set(targets.deep)) add(folder, true)
  for (const folder of new Set(targets.shallow)) add(folder, false)
  // A file is watched through its folder (an editor's save may replace the file, which a watch
  // on the file itself would not follow), for its own name only.
  const files = new Map<string, Set<string>>()
  for (const file of targets.files ?? []) {
    const names = files.get(path.dirname(file)) ?? new Set<string>()
    files.set(path.dirname(file), names.add(path.basename(file)))
  }
  for (const [folder, names] of files) {
    if (!existsSync(folder)) continue
    try {
      const watcher = watch(folder, (_event, name) => {
        if (name !== null && names.has(name.toString())) changed(path.join(folder, name.toString()))
      })
      watcher.on("error", () => watcher.close())
      watchers.push(watcher)
    } catch {
      // As above: watched again at the next reload.
    }
  }
  return watchers
}

/**
 * The files the targets watch, as they are now: everything below a deep folder (but node_modules,
 * and what isProjectFile leaves out), the entries of a shallow folder that opencode reads as files
 * (opencode.json, package.json), and the single files.
 */
function watchedFiles(targets: WatchTargets): string[] {
  const found = new Set<string>(targets.files ?? [])
  const walk = (folder: string) => {
    let entries: Dirent[]
    try {
      entries = readdirSync(folder, { withFileTypes: true })
    } catch {
      return
    }
    for (const entry of entries) {
      const file = path.join(folder, entry.name)
      if (!isProjectFile(file)) continue
      if (entry.isDirectory()) walk(file)
      else found.add(file)
    }
  }
  for (const folder of new Set(targets.deep)) walk(folder)
  for (const folder of new Set(targets.shallow))
    for (const name of SHALLOW_FILE_NAMES) {
      const file = path.join(folder, name)
      if (isRegularFile(file)) found.add(file)
    }
  return [...found]
}

/**
 * How far a file's time may lag Date.now(): Linux stamps files from a clock read once a tick (up to
 * 10 ms on a kernel built with HZ=100). A save this much before a load began is taken as made during
 * it: at worst one reload too many, which reads the same files. The save that started the load is
 * older still: SETTLE_MS passed after it before the load began.
 */
const FILE_CLOCK_LAG_MS = 10

/**
 * The files saved at or after `since` (a Date.now() time), by their modification time; a file that
 * cannot be read now is left out (gone: goneNow says so when the load read it).
 */
function savedSince(files: readonly string[], since: number): string[] {
  return files.filter((file) => {
    try {
      return Number(statOf(file).mtimeMs) >= since - FILE_CLOCK_LAG_MS
    } catch {
      return false
    }
  })
}

/** The files that are not there now (removed, or their folder): a load that read one reads it no more. */
function goneNow(files: Iterable<string>): string[] {
  return [...files].filter((file) => !existsSync(file))
}

/** The files of a config or project folder that opencode reads. */
const SHALLOW_FILE_NAMES = ["opencode.json", "opencode.jsonc", "package.json"]

/** The entries of a config or project folder that change what opencode loads. */
const SHALLOW_NAMES = new Set([
  ...SHALLOW_FILE_NAMES,
  // A project's .opencode made while dev runs (a new project): its tools are read from then on.
  ".opencode",
  ...TOOL_FOLDERS,
  ...PLUGIN_FOLDERS,
])

/** Whether `file` is `folder` or below it (compared as the platform compares paths: a drive letter's case differs on Windows). */
function isInside(file: string, folder: string): boolean {
  const relative = path.relative(folder, file)
  return !relative.startsWith("..") && !path.isAbsolute(relative)
}

function isProjectFile(file: string): boolean {
  if (file.split(path.sep).includes("node_modules")) return false
  const base = path.basename(file)
  // Editors' swap and backup files, and git's folder, are not the project.
  return !(base.endsWith("~") || base.endsWith(".swp") || base.startsWith(".#") || base === ".git")
}
