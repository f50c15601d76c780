// Finding the real opencode binary: an explicit path, else the binary `opencode-ai` chose for this
// machine (its bin/opencode.exe once its postinstall ran), else the platform package
// (`opencode-<platform>-<arch>` and its variants, opencode-packages.ts) resolvable from the project
// or from tool-tester, else `opencode` on PATH. `opencodeVersion` installs that version of the platform
// package with npm into a cache folder, once.

import { accessSync, constants, existsSync, realpathSync } from "node:fs"
import { mkdir, mkdtemp, rename, rm } from "node:fs/promises"
import { createRequire } from "node:module"
import { homedir } from "node:os"
import { basename, dirname, join, posix, resolve, win32 } from "node:path"
import { fileURLToPath } from "node:url"
import { statOf } from "../_file-stats.ts"
import { ToolTesterError } from "../errors.ts"
import { PACKAGE_MANAGERS, packageManagerThatInstalled } from "../package-manager.ts"
import { findProgram, isCommandName } from "../runtime/find-program.ts"
import { programOutput } from "../runtime/program-output.ts"
import { isNativeExecutable, opencodeBinaryIn, opencodePackageNames } from "./opencode-packages.ts"
import { MODELLED_OPENCODE_VERSION } from "./opencode-version.ts"

/** The opencode version tool-tester is checked against. */
export const testedOpencodeVersion = MODELLED_OPENCODE_VERSION

export interface FindOpencodeOptions {
  /** Also look for the platform package from this project folder. */
  directory?: string | undefined
  /** Where to read PATH from (defaults to `process.env`). */
  env?: Record<string, string | undefined>
  /** Also look on PATH (default true). */
  path?: boolean
}

/** The path of an installed opencode binary, or undefined. Never installs anything. */
export function findOpencode(options: FindOpencodeOptions = {}): string | undefined {
  const starts = [options.directory, moduleDirectory()].filter((start) => start !== undefined)
  for (const start of starts) {
    // `opencode-ai` keeps its platform package beside it (pnpm) or hoisted (npm).
    const wrapper = findPackage("opencode-ai", resolve(start))
    // Its launcher picked the build for this CPU and C library, and put it in place of its bin
    // (named opencode.exe on every platform).
    const chosen = wrapper === undefined ? undefined : join(wrapper, "bin", "opencode.exe")
    if (chosen !== undefined && isExecutable(chosen) && isNativeExecutable(chosen)) return chosen
    for (const name of opencodePackageNames()) {
      const candidates = [findPackage(name, resolve(start))]
      if (wrapper !== undefined) candidates.push(join(dirname(realpathSync(wrapper)), name))
      for (const packageDirectory of candidates) {
        if (packageDirectory === undefined) continue
        const binary = opencodeBinaryIn(packageDirectory)
        if (isExecutable(binary)) return binary
      }
    }
  }
  if (options.path === false) return undefined
  const onPath = findOnPath("opencode", options.env ?? process.env)
  return onPath === undefined ? undefined : (opencodeExecutable(onPath) ?? onPath)
}

export interface ResolveOpencodeOptions extends FindOpencodeOptions {
  /** An explicit binary: its path, or a command name (no folder in it), looked up on PATH as a shell does. */
  opencode?: string
  /** Install this version of the platform package into the cache (once) and use it. */
  opencodeVersion?: string
  signal?: AbortSignal
  /** Told when an install starts ("installing opencode-linux-x64@1.18.34 with npm (about 180 MB, once)"). */
  onProgress?: ((phase: string) => void) | undefined
}

/** The binary to run; throws OPENCODE_NOT_FOUND with a way to get one. */
export async function resolveOpencode(options: ResolveOpencodeOptions = {}): Promise<string> {
  if (options.opencode !== undefined) {
    if (isCommandName(options.opencode)) {
      // `--opencode opencode`: the program the shell would start (PATHEXT and .cmd shims on Windows).
      const found = findOnPath(options.opencode, options.env ?? process.env)
      if (found !== undefined) return opencodeExecutable(found) ?? found
      throw new ToolTesterError(
        "OPENCODE_NOT_FOUND",
        `No program named ${options.opencode} on PATH. Check the --opencode name, give the binary's path, or drop it to use an installed one.`,
        { data: { command: options.opencode } },
      )
    }
    const binary = resolve(options.opencode)
    if (isExecutable(binary)) return opencodeExecutable(binary) ?? binary
    if (isFolder(binary)) {
      // `--opencode ~/.opencode`: the folder opencode's install script fills, not its binary.
      const inside = opencodeBinaryIn(binary)
      const instead = isExecutable(inside) ? `did you mean ${inside}?` : "give the path of the opencode executable"
      throw new ToolTesterError(
        "OPENCODE_NOT_FOUND",
        `--opencode ${binary} is a folder, not an opencode binary: ${instead}`,
        {
          data: { path: binary },
        },
      )
    }
    throw new ToolTesterError(
      "OPENCODE_NOT_FOUND",
      `No executable opencode binary at ${binary}. Check the --opencode path, or drop it to use an installed one.`,
      { data: { path: binary } },
    )
  }
  if (options.opencodeVersion !== undefined)
    return installOpencode(options.opencodeVersion, options.signal, options.onProgress)
  const found = findOpencode(options)
  if (found !== undefined) return found
  throw opencodeNotFoundError(options.directory)
}

/**
 * The error for "no binary anywhere". In a package (a package.json at or above `directory`), it names
 * the platform package to add with the package manager that installed it; elsewhere adding one
 * would create a package.json, so it offers tool-tester's cache first.
 */
export function opencodeNotFoundError(directory?: string): ToolTesterError {
  const [packageName] = opencodePackageNames()
  const spec = `${packageName}@${testedOpencodeVersion}`
  const root = directory === undefined ? undefined : packageRoot(resolve(directory))
  const message =
    root === undefined
      ? `No opencode binary found. Pass --opencode-version ${testedOpencodeVersion} to download it into tool-tester's cache (once, about 180 MB), ` +
        "or --opencode PATH, or install opencode on PATH (npm install -g opencode-ai)."
      : `No opencode binary found. Add it to the project with \`${PACKAGE_MANAGERS[packageManagerThatInstalled(root)].addDev(undefined, spec)}\`, ` +
        `or pass --opencode PATH or --opencode-version ${testedOpencodeVersion}.`
  return new ToolTesterError("OPENCODE_NOT_FOUND", message)
}

/** Node's package lookup (node_modules folders up from `start`), without needing `exports`. */
export function findPackage(name: string, start: string): string | undefined {
  let directory = start
  for (;;) {
    const candidate = join(directory, "node_modules", name)
    if (existsSync(join(candidate, "package.json"))) return candidate
    const parent = dirname(directory)
    if (parent === directory) return undefined
    directory = parent
  }
}

/**
 * tool-tester's own per-user cache folder (downloaded binaries, `bun-hosts`), where each platform
 * keeps caches: `%LOCALAPPDATA%` on Windows, `~/Library/Caches` on macOS, `$XDG_CACHE_HOME` else
 * `~/.cache` elsewhere. A variable set to "" counts as unset. (opencode's own folders follow
 * xdg-basedir on every platform instead: discovery/config-dirs.ts, pipeline/data-directory.ts.)
 */
export function toolTesterCacheDirectory(
  env: Record<string, string | undefined> = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  const paths = platform === "win32" ? win32 : posix
  if (platform === "win32")
    return paths.join(env.LOCALAPPDATA || paths.join(home, "AppData", "Local"), "opencode-tool-tester")
  if (platform === "darwin") return paths.join(home, "Library", "Caches", "opencode-tool-tester")
  return paths.join(env.XDG_CACHE_HOME || paths.join(home, ".cache"), "opencode-tool-tester")
}

// --- internal ---

/** The nearest folder at or above `start` with a package.json (the package a dev dependency goes to). */
function packageRoot(start: string): string | undefined {
  for (let folder = start; ; folder = dirname(folder)) {
    if (existsSync(join(folder, "package.json"))) return folder
    if (dirname(folder) === folder) return undefined
  }
}

/**
 * The version `--opencode-version` (`opencodeVersion`) installs, or OPENCODE_NOT_FOUND: an exact
 * one only, since the install is cached by the word given, so a dist-tag or a range (latest, 1,
 * 1.x) would be resolved once and its first answer kept for good. `v1.18.34` is 1.18.34.
 */
export function exactOpencodeVersion(version: string): string {
  const exact = semverValid(version)
  if (exact !== null) return exact
  const hint = /^[0-9A-Za-z.+-]+$/.test(version)
    ? ": give an exact version, not a tag or a range, which would be installed once and kept in the cache as it first resolved (npm view opencode-ai version prints the newest)"
    : ""
  throw new ToolTesterError(
    "OPENCODE_NOT_FOUND",
    `"${version}" is not an opencode version (like ${MODELLED_OPENCODE_VERSION})${hint}.`,
  )
}

/**
 * semver's valid(), loaded on first use: semver is some 50 CommonJS files, and every CLI run and
 * every engine start reach this module (to find opencode), while only `e2e --opencode-version`
 * reads a version here.
 */
function semverValid(version: string): string | null {
  return (createRequire(import.meta.url)("semver") as typeof import("semver")).valid(version)
}

async function installOpencode(
  version: string,
  signal: AbortSignal | undefined,
  onProgress: ((phase: string) => void) | undefined,
): Promise<string> {
  const [packageName] = opencodePackageNames() as [string]
  return installCachedBinary({
    packageName,
    version: exactOpencodeVersion(version),
    binary: opencodeBinaryIn(""),
    code: "OPENCODE_NOT_FOUND",
    instead: "pass --opencode PATH",
    signal,
    onProgress,
    size: "about 180 MB",
  })
}

/**
 * Installs `packageName@version` with npm into tool-tester's cache folder, once, and returns the
 * path of its `binary` (relative to the package). An install is staged in a folder of its own and
 * renamed into place, so a failed or concurrent install never leaves half a package behind.
 */
export async function installCachedBinary(options: {
  packageName: string
  version: string
  binary: string
  code: "OPENCODE_NOT_FOUND" | "ENGINE_NOT_FOUND"
  /** What to do instead, for the error message ("pass --opencode PATH"). */
  instead: string
  signal?: AbortSignal | undefined
  /** Told when the install starts, so a terminal can show it; not called when the cache has it. */
  onProgress?: ((phase: string) => void) | undefined
  /** How much the install downloads, for the progress line ("about 180 MB"). */
  size?: string | undefined
}): Promise<string> {
  const { packageName, version } = options
  const target = cachedPackageDirectory(packageName, version)
  const binary = join(target, "node_modules", packageName, options.binary)
  if (isExecutable(binary)) return binary
  const size = options.size === undefined ? "" : `, ${options.size}`
  options.onProgress?.(`installing ${packageName}@${version} with npm (once${size})`)
  await mkdir(dirname(target), { recursive: true })
  const staging = await mkdtemp(`${target}.installing-`)
  try {
    const args = ["install", "--prefix", staging, "--no-save", "--no-audit", "--no-fund", "--ignore-scripts"]
    const npm = await programOutput("npm", [...args, `${packageName}@${version}`], {
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    })
    if (npm.error !== null) {
      // No npm to start: the version is not at fault ("spawn npm ENOENT ... Check the version").
      if ((npm.error as NodeJS.ErrnoException).code === "ENOENT")
        throw new ToolTesterError(
          options.code,
          `Could not install ${packageName}@${version}: npm was not found on PATH. Put npm on PATH (it comes with Node.js), or install ${packageName}@${version} yourself and ${options.instead}.`,
          { cause: npm.error },
        )
      const reason = npmReason(npm.stderr) ?? npm.error.message
      throw new ToolTesterError(
        options.code,
        `Could not install ${packageName}@${version} with npm (${reason}). Check the version, or install it yourself and ${options.instead}.`,
        { cause: npm.error },
      )
    }
    const installed = join(staging, "node_modules", packageName, options.binary)
    if (!isExecutable(installed)) {
      throw new ToolTesterError(
        options.code,
        `${packageName}@${version} installed but has no ${options.binary}. Install it yourself and ${options.instead}.`,
      )
    }
    // Another process may have finished the same install meanwhile: keep the first one.
    if (!existsSync(target)) await rename(staging, target)
    return binary
  } finally {
    await rm(staging, { recursive: true, force: true })
  }
}

/** The opencode `version` that `--opencode-version` installed into tool-tester's cache before, or undefined. */
export function cachedOpencode(version: string): string | undefined {
  const [packageName] = opencodePackageNames() as [string]
  const binary = join(cachedPackageDirectory(packageName, version), "node_modules", packageName, opencodeBinaryIn(""))
  return isExecutable(binary) ? binary : undefined
}

/** Where {@link installCachedBinary} keeps `packageName@version`. */
export function cachedPackageDirectory(packageName: string, version: string): string {
  return join(toolTesterCacheDirectory(), `${packageName.replace("/", "+")}@${version}`)
}

/** The first telling line of npm's error output ("No matching version found for ..."). */
function npmReason(stderr: string): string | undefined {
  const lines = stderr
    .split("\n")
    .map((line) => line.replace(/^npm (error|ERR!)( (notarget|code|404))?\s*/, "").trim())
    .filter((line) => line !== "" && !/^[A-Z0-9_]+$/.test(line) && !line.startsWith("A complete log"))
  return lines[0]?.replace(/\.$/, "")
}

function moduleDirectory(): string {
  return dirname(fileURLToPath(import.meta.url))
}

/** `command` on PATH as the user's shell finds it (find-program.ts: PATHEXT on Windows), when it is executable. */
export function findOnPath(command: string, env: Record<string, string | undefined>): string | undefined {
  const found = findProgram(command, env)
  return found !== undefined && isExecutable(found) ? found : undefined
}

/**
 * The executable behind an `opencode` command: itself when it is a binary, else (npm's
 * `opencode-ai` launcher is a Node script in older versions, a text saying to run its postinstall
 * when that was skipped, and on Windows npm's command is a .cmd shim: none would pass BUN_BE_BUN's
 * process on, nor a process group to end) the platform binary installed beside that launcher.
 */
export function opencodeExecutable(command: string): string | undefined {
  let real: string
  try {
    real = realpathSync(command)
  } catch {
    return undefined
  }
  if (isNativeExecutable(real)) return real
  // npm's global folder on Windows keeps the shim beside node_modules (%APPDATA%\npm\opencode.cmd).
  const folders = [join(dirname(real), "node_modules", "opencode-ai")]
  for (let directory = dirname(real); directory !== dirname(directory); directory = dirname(directory))
    if (basename(directory) === "opencode-ai") folders.push(directory)
  for (const directory of folders) {
    for (const name of opencodePackageNames()) {
      for (const candidate of [join(directory, "node_modules", name), join(dirname(directory), name)]) {
        const binary = opencodeBinaryIn(candidate)
        if (isExecutable(binary)) return binary
      }
    }
  }
  return undefined
}

function isFolder(path: string): boolean {
  try {
    return statOf(path).isDirectory()
  } catch {
    return false
  }
}

export function isExecutable(path: string): boolean {
  try {
    if (!statOf(path).isFile()) return false
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}
