// What only `tool-tester fuzz`, `preflight` and `dev` use is not installed with tool-tester: a user
// who only calls runTool in a test would carry ~35 MB of it (publint, @arethetypeswrong/core and
// the TypeScript it brings, hono, fast-check). They are optional peer dependencies, which no
// package manager installs on its own. The command that needs one checks for it first and stops
// with the one command that installs it where this copy of tool-tester finds it (EXTRA_NOT_INSTALLED).
import { existsSync, realpathSync } from "node:fs"
import path from "node:path"
import { portablePath, shellWord } from "./_shell-quote.ts"
import { fileURLToPath } from "node:url"
import { realPathOrAsIs } from "./_real-path.ts"
import semver from "semver"
import { readSourceText } from "./discovery/_source-file.ts"
import { ToolTesterError } from "./errors.ts"
import { initCwdIsYarnCwd, PACKAGE_MANAGERS, packageManagerThatInstalled } from "./package-manager.ts"

/** The packages each command needs beyond tool-tester's own dependencies. */
export const EXTRAS = {
  dev: ["hono", "@hono/node-server"],
  fuzz: ["fast-check"],
  preflight: ["fast-check", "publint", "@arethetypeswrong/core"],
} as const satisfies Record<string, readonly string[]>

export type ExtrasCommand = keyof typeof EXTRAS

/**
 * Throws EXTRA_NOT_INSTALLED when a package `command` needs cannot be found from tool-tester's
 * folder, or is outside the range tool-tester's package.json accepts; the message ends with the
 * command that installs them all, from the folder the user's shell is in.
 */
export function requireExtras(
  command: ExtrasCommand,
  options: { cwd: string; env?: Record<string, string | undefined>; from?: string },
): void {
  const own = ownPackage(options.from ?? fileURLToPath(import.meta.url))
  const problems = EXTRAS[command].flatMap((name) => {
    const range = own.peers[name] ?? "*"
    const found = findPackage(name, own.directory)
    if (found === undefined) return [{ name, range, said: name }]
    if (semver.satisfies(found.version, range)) return []
    return [{ name, range, said: `${name} ${range} (${found.version} is installed)` }]
  })
  if (problems.length === 0) return
  const specs = problems.map(({ name, range }) => `${name}@${semver.minVersion(range)?.version ?? "latest"}`)
  // The command is pasted where the user typed theirs: `pnpm --dir .opencode exec` and npm scripts
  // run the CLI elsewhere, and say where they were started in INIT_CWD. `bun run --cwd .opencode`
  // says nothing, and yarn 2+ gives its `--cwd` folder (initCwdIsYarnCwd): from the project folder
  // around a `.opencode` package, as the docs run every command (and as invocation.ts prints
  // tool-tester's own commands).
  const yarnCwd = initCwdIsYarnCwd(options.env ?? {})
  const initCwd = yarnCwd ? undefined : options.env?.["INIT_CWD"]
  // A real path: tool-tester's folder is found from the real path of this module.
  const root = installRoot(own.directory)
  const shellCwd =
    initCwd && path.isAbsolute(initCwd) && existsSync(initCwd)
      ? initCwd
      : (yarnCwd || startedByBunRun(options.env)) &&
          path.basename(root) === ".opencode" &&
          realPathOrAsIs(path.resolve(options.cwd)) === root
        ? path.dirname(root)
        : options.cwd
  const install = installCommand(own.directory, specs, shellCwd)
  const said = problems.map((problem) => problem.said).join(", ")
  throw new ToolTesterError(
    "EXTRA_NOT_INSTALLED",
    `tool-tester ${command} needs ${said}, which ${problems.length === 1 ? "is" : "are"} not installed with tool-tester; install with: ${install}`,
    { data: { command, missing: problems.map((problem) => problem.name), install } },
  )
}

/**
 * The command that installs `specs` where the tool-tester in `packageDirectory` finds them: in the
 * project whose node_modules holds it, with the package manager that installed it, from `cwd`.
 */
export function installCommand(packageDirectory: string, specs: string[], cwd: string): string {
  const root = installRoot(packageDirectory)
  const list = specs.join(" ")
  // No package.json where tool-tester sits: a global install (npm's lib/node_modules).
  if (!existsSync(path.join(root, "package.json"))) return `npm install -g ${list}`
  const relative = path.relative(cwd, root)
  const where = relative === "" ? undefined : shellWord(portablePath(relative))
  return PACKAGE_MANAGERS[packageManagerThatInstalled(root)].addDev(where, list)
}

// --- internal ---

/** `bun run` (which sets npm_config_user_agent, and no INIT_CWD) started this process. */
function startedByBunRun(env: Record<string, string | undefined> | undefined): boolean {
  return /^bun\//.test(env?.["npm_config_user_agent"] ?? "") && env?.["INIT_CWD"] === undefined
}

/** tool-tester's own folder (real path) and the ranges of its optional peers. */
function ownPackage(from: string): { directory: string; peers: Record<string, string> } {
  for (let folder = path.dirname(realpathSync(from)); ; folder = path.dirname(folder)) {
    const manifest = readManifest(path.join(folder, "package.json"))
    if (manifest?.name === "@opencode-ai/tool-tester")
      return { directory: folder, peers: (manifest.peerDependencies as Record<string, string>) ?? {} }
    if (path.dirname(folder) === folder) throw new Error(`no package.json of @opencode-ai/tool-tester above ${from}`)
  }
}

/** The package `name` as Node finds it from `directory`: in the node_modules folders from there up. */
function findPackage(name: string, directory: string): { version: string } | undefined {
  for (let folder = directory; ; folder = path.dirname(folder)) {
    const modules = path.basename(folder) === "node_modules" ? folder : path.join(folder, "node_modules")
    const manifest = readManifest(path.join(modules, ...name.split("/"), "package.json"))
    if (typeof manifest?.version === "string") return { version: manifest.version }
    if (path.dirname(folder) === folder) return undefined
  }
}

/** The project whose node_modules holds `packageDirectory` (before the first node_modules of its path; pnpm's store is under it). */
function installRoot(packageDirectory: string): string {
  const parts = packageDirectory.split(path.sep)
  const index = parts.indexOf("node_modules")
  // Not in a node_modules (this repository's workspace): the package's own folder.
  if (index <= 0) return packageDirectory
  return parts.slice(0, index).join(path.sep) || path.sep
}

/** A package.json, or undefined when it is missing, unreadable, not JSON, or not a regular file (a FIFO would block the read). */
function readManifest(file: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readSourceText(file))
  } catch {
    return undefined
  }
}
