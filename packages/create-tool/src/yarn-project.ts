import { readFileSync } from "node:fs"
import { dirname, join, relative } from "node:path"
import { isRegularFile } from "./_file-stats.ts"
import { matchesGlobs } from "./_glob-match.ts"
import { portablePath } from "./_shell-quote.ts"
import { printable, quoted } from "./printable.ts"

// yarn 2+ installs a folder as part of a project: the nearest folder above with a yarn.lock, else
// the topmost one with a package.json (yarn 4.18.1). A plugin package scaffolded in a subfolder of
// one is either a workspace of it (its "workspaces" globs take the folder in: yarn installs it from
// there) or nothing of it: every yarn command in it then stops with "The nearest package directory
// (...) doesn't seem to be part of the project declared in ...", and `yarn config set` in it writes
// the project's .yarnrc.yml. An empty yarn.lock in the package makes it a project of its own.

export const YARN_LOCK = "yarn.lock"

/** The yarn 2+ project above a plugin package's folder. */
export type YarnProject = {
  /** The project's folder. */
  root: string
  /** Whether its "workspaces" take the package's folder in. */
  workspace: boolean
  /** Whether its .yarnrc.yml sets `nodeLinker: node-modules` (else yarn installs with Plug'n'Play). */
  nodeModules: boolean
}

/**
 * The yarn 2+ project that `folder` (a plugin package, which will hold a package.json) would belong
 * to when that is a folder above it; undefined when `folder` is (or would be) a project of its own.
 */
export function enclosingYarnProject(folder: string): YarnProject | undefined {
  let project = folder
  if (!isRegularFile(join(folder, YARN_LOCK))) {
    for (let current = dirname(folder); ; current = dirname(current)) {
      if (isRegularFile(join(current, "package.json"))) project = current
      if (isRegularFile(join(current, YARN_LOCK)) || dirname(current) === current) break
    }
  }
  if (project === folder) return undefined
  const path = portablePath(relative(project, folder))
  return {
    root: project,
    workspace: matchesGlobs(path, workspaceGlobs(join(project, "package.json"))),
    nodeModules: setsNodeModules(join(project, ".yarnrc.yml")),
  }
}

/** The note on a plugin package `folder` in the yarn project `project` (what the next steps do about it). */
export function yarnProjectNote(project: YarnProject, folder: string): string {
  const path = portablePath(relative(project.root, folder))
  const manifest = join(project.root, "package.json")
  if (!project.workspace) {
    return `${printable(folder)} is inside the yarn project ${printable(project.root)} but not in its "workspaces", so yarn would not install it: its empty ${YARN_LOCK} makes it a project of its own; to make it a workspace instead, delete that ${YARN_LOCK} and add ${quoted(path)} to "workspaces" in ${printable(manifest)}.`
  }
  const linker = project.nodeModules
    ? ""
    : `; that project installs with Plug'n'Play, which neither opencode nor tool-tester loads from: \`yarn config set nodeLinker node-modules\` there switches all of it to node_modules`
  return `${printable(folder)} is a workspace of the yarn project ${printable(project.root)} (its "workspaces" take ${quoted(path)} in): yarn installs it from there, and the next steps run from there${linker}.`
}

// --- internal ---

/** The "workspaces" globs of a package.json (an array, or yarn 1's `{ packages }`); none when unreadable. */
function workspaceGlobs(manifest: string): string[] {
  try {
    const parsed = JSON.parse(readFileSync(manifest, "utf8")) as { workspaces?: unknown }
    const workspaces = parsed.workspaces
    const globs =
      typeof workspaces === "object" && workspaces !== null && !Array.isArray(workspaces)
        ? (workspaces as { packages?: unknown }).packages
        : workspaces
    return Array.isArray(globs) ? globs.filter((glob): glob is string => typeof glob === "string") : []
  } catch {
    return []
  }
}

/** Whether the .yarnrc.yml at `file` sets `nodeLinker: node-modules` (a top-level line; quoted or not). */
function setsNodeModules(file: string): boolean {
  if (!isRegularFile(file)) return false
  try {
    return /^nodeLinker:\s*["']?node-modules["']?\s*(#.*)?$/m.test(readFileSync(file, "utf8"))
  } catch {
    return false
  }
}
