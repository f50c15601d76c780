// The package managers tool-tester names in the commands it prints, and the one table of their
// words. Two questions, two functions: which one started this process (`npm_config_user_agent`:
// how tool-tester itself is run again) and which one installed a project (its lock file: how a
// package is added there). create-tool keeps a table of its own (packages share no source).
import { existsSync } from "node:fs"
import path from "node:path"

export type PackageManager = "npm" | "pnpm" | "yarn" | "bun"

/** What a package manager is told; `where` is a folder relative to the shell's, already quoted; undefined: here. */
type Words = {
  /** Runs a package's bin without installing it (a one-off download). */
  download: string
  /** Runs the bin `bin` of the package `name` installed in `where`. */
  runInstalled(where: string | undefined, bin: string, name: string): string
  /** Adds `list` to the devDependencies of the project in `where`. */
  addDev(where: string | undefined, list: string): string
  /** Adds `list` to the dependencies of the project in `where`. */
  add(where: string | undefined, list: string): string
}

export const PACKAGE_MANAGERS: Readonly<Record<PackageManager, Words>> = {
  npm: {
    download: "npx",
    // npx runs an installed package's bin; by its scoped name it never fetches another package.
    // With --prefix, npx finds a scoped name's package but not its bin (npm 11.19: `tool-tester:
    // not found`), so the bin's name, with --no: a missing install stops npx instead of fetching.
    runInstalled: (where, bin, name) => (where === undefined ? `npx ${name}` : `npx --no --prefix ${where} ${bin}`),
    addDev: (where, list) =>
      where === undefined ? `npm install -D ${list}` : `npm install --prefix ${where} -D ${list}`,
    add: (where, list) => (where === undefined ? `npm install ${list}` : `npm install --prefix ${where} ${list}`),
  },
  pnpm: {
    download: "pnpm dlx",
    runInstalled: (where, bin) => (where === undefined ? `pnpm exec ${bin}` : `pnpm --dir ${where} exec ${bin}`),
    addDev: (where, list) => (where === undefined ? `pnpm add -D ${list}` : `pnpm --dir ${where} add -D ${list}`),
    add: (where, list) => (where === undefined ? `pnpm add ${list}` : `pnpm --dir ${where} add ${list}`),
  },
  yarn: {
    download: "npx",
    runInstalled: (where, bin) => (where === undefined ? `yarn ${bin}` : `yarn --cwd ${where} ${bin}`),
    addDev: (where, list) => (where === undefined ? `yarn add -D ${list}` : `yarn --cwd ${where} add -D ${list}`),
    add: (where, list) => (where === undefined ? `yarn add ${list}` : `yarn --cwd ${where} add ${list}`),
  },
  bun: {
    download: "bunx",
    runInstalled: (where, bin) => (where === undefined ? `bun run ${bin}` : `bun run --cwd ${where} ${bin}`),
    addDev: (where, list) => (where === undefined ? `bun add -D ${list}` : `bun add --cwd ${where} -D ${list}`),
    add: (where, list) => (where === undefined ? `bun add ${list}` : `bun add --cwd ${where} ${list}`),
  },
}

/** The package manager that started this process, from `npm_config_user_agent` (`pnpm/10.3.0 npm/? node/...`). */
export function packageManagerThatStarted(env: Record<string, string | undefined>): PackageManager | undefined {
  const match = /^(npm|pnpm|yarn|bun)\//.exec(env["npm_config_user_agent"] ?? "")
  return match === null ? undefined : (match[1] as PackageManager)
}

/**
 * Whether `INIT_CWD` is yarn 2+'s `--cwd` folder rather than the one the user typed in: yarn 2 and
 * later move into the `--cwd` folder first and set INIT_CWD (and PWD) to it (yarn 4.18.1: `yarn
 * --cwd .opencode tool-tester`, typed in the project folder, passes `.../.opencode`), so an
 * INIT_CWD that is a `.opencode` folder cannot be told from a command typed inside it. The callers
 * then take the project folder around it, where the docs run every command, as under Bun.
 */
export function initCwdIsYarnCwd(env: Readonly<Record<string, string | undefined>>): boolean {
  const yarn = /^yarn\/(\d+)\./.exec(env["npm_config_user_agent"] ?? "")
  const folder = env["INIT_CWD"]
  return (
    yarn !== null && Number(yarn[1]) >= 2 && folder !== undefined && path.basename(path.resolve(folder)) === ".opencode"
  )
}

/** The package manager that installed the project in `root`: its lock file, or what it leaves in node_modules; npm when nothing says. */
export function packageManagerThatInstalled(root: string): PackageManager {
  return installMark(root)?.manager ?? "npm"
}

/**
 * What says which package manager installed the project in `root`: its lock file, or what it
 * leaves in node_modules, in `root` or a folder above (a workspace member's lock file is at the
 * workspace's root), with the file that says it; undefined when nothing does.
 */
export function installMark(root: string): { manager: PackageManager; file: string } | undefined {
  for (let folder = root; ; folder = path.dirname(folder)) {
    const mark = INSTALL_MARKS.find(([file]) => existsSync(path.join(folder, file)))
    if (mark) return { manager: mark[1], file: path.join(folder, mark[0]) }
    if (path.dirname(folder) === folder) return undefined
  }
}

/**
 * The command that adds `list` to the dependencies of the package in `folder`, shown as `where`
 * (relative to the shell's folder, quoted; undefined: that folder), with the package manager that
 * installed it: npm into a pnpm-installed folder would redo its node_modules in npm's layout. npm
 * where `folder` has no package.json yet (npm creates one there).
 */
export function addDependencyCommand(folder: string, where: string | undefined, list: string): string {
  const manager = existsSync(path.join(folder, "package.json")) ? packageManagerThatInstalled(folder) : "npm"
  return PACKAGE_MANAGERS[manager].add(where, list)
}

// --- internal ---

const INSTALL_MARKS: ReadonlyArray<readonly [string, PackageManager]> = [
  ["pnpm-lock.yaml", "pnpm"],
  ["bun.lock", "bun"],
  ["bun.lockb", "bun"],
  ["yarn.lock", "yarn"],
  ["package-lock.json", "npm"],
  [path.join("node_modules", ".pnpm"), "pnpm"],
  [path.join("node_modules", ".yarn-integrity"), "yarn"],
  [path.join("node_modules", ".package-lock.json"), "npm"],
]
