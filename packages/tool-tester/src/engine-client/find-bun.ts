// Where the bun engine's Bun comes from (docs/cli.md, "Engines"), in this order: the binary named
// by --engine-binary / TOOL_TESTER_ENGINE_BINARY (a path, or a command name looked up on PATH as a
// shell does), the user's own `opencode` on PATH (the very Bun their opencode embeds, run with
// BUN_BE_BUN=1), an opencode binary installed as e2e installs it, then npm's Bun at the version
// the tested opencode embeds. Only the last one is ever downloaded, and only when the bun engine is
// asked for by name.
import path from "node:path"
import { ToolTesterError } from "../errors.ts"
import {
  cachedPackageDirectory,
  findOnPath,
  findOpencode,
  installCachedBinary,
  isExecutable,
  opencodeExecutable,
  testedOpencodeVersion,
} from "../opencode/opencode-binary.ts"
import type { Machine } from "../opencode/opencode-packages.ts"
import { opencodeBinaryIn, opencodePackageNames, thisMachine } from "../opencode/opencode-packages.ts"
import { isCommandName } from "../runtime/find-program.ts"
import { programOutput } from "../runtime/program-output.ts"

/** The Bun that opencode 1.18.34 embeds (`BUN_BE_BUN=1 opencode --version`). */
const testedBunVersion = "1.3.14"

/** Where a Bun was found, for the report ("opencode on PATH"). */
export type BunSource = "option" | "env" | "path" | "opencode-package" | "bun-package" | "current"

export type BunLocation = {
  binary: string
  source: BunSource
  /** The path it was found by, before links and npm's opencode launcher were followed (bin.js's launcher looks it up). */
  foundAs?: string
}

export type FindBunOptions = {
  /** An explicit binary, a Bun or an opencode executable: its path, or a command name (no folder in it) looked up on PATH. */
  engineBinary?: string | undefined
  /**
   * The folder a relative engineBinary (or TOOL_TESTER_ENGINE_BINARY) is read from: the CLI's is the
   * one the command was typed in (CliIO's cwd); process.cwd() when not given.
   */
  cwd?: string | undefined
  /** Read for TOOL_TESTER_ENGINE_BINARY and PATH. */
  env: Record<string, string | undefined>
  /** The project: an opencode platform package installed there counts as installed. */
  directory?: string | undefined
  /**
   * Whether the Bun this process runs in is the engine (the default). The CLI that bin.js's
   * launcher started in Bun says false: it looks for the engine as when Node runs it.
   */
  runningBun?: boolean
}

/** A Bun already on this machine, or undefined. Never installs anything. Throws when an explicit binary is not executable. */
export function findBun(options: FindBunOptions): BunLocation | undefined {
  const explicit = explicitBinary(options)
  if (explicit) return explicit
  // tool-tester itself running in Bun: the engine is the Bun it runs in.
  if (typeof process.versions.bun === "string" && options.runningBun !== false)
    return { binary: process.execPath, source: "current" }
  const onPath = findOnPath("opencode", options.env)
  const real = onPath === undefined ? undefined : opencodeExecutable(onPath)
  if (real) return { binary: real, source: "path", foundAs: onPath! }
  const installed = findOpencode({ directory: options.directory, env: options.env, path: false }) ?? cachedOpencode()
  if (installed) return { binary: installed, source: "opencode-package" }
  const bun = cachedBun()
  return bun ? { binary: bun, source: "bun-package" } : undefined
}

/** {@link findBun}, else npm's `bun` at {@link testedBunVersion}, installed once into tool-tester's cache. */
export async function resolveBun(options: FindBunOptions & { signal?: AbortSignal }): Promise<BunLocation> {
  const found = findBun(options)
  if (found) return found
  const [packageName] = bunPackageNames() as [string]
  const binary = await installCachedBinary({
    packageName,
    version: testedBunVersion,
    binary: path.join("bin", bunBinaryName()),
    code: "ENGINE_NOT_FOUND",
    instead: "pass --engine-binary PATH (or install opencode), or use --engine node",
    signal: options.signal,
  })
  return { binary, source: "bun-package" }
}

/** The version of the Bun an opencode (or bun) executable is: `BUN_BE_BUN=1 <binary> --version`; "unknown" when it does not say. */
export function embeddedBunVersion(binary: string): Promise<string> {
  return programOutput(binary, ["--version"], { env: { ...process.env, BUN_BE_BUN: "1" }, timeout: 10_000 }).then(
    ({ error, stdout }) => {
      const version = stdout.trim()
      return error === null && /^\d+\.\d+\.\d+/.test(version) ? version : "unknown"
    },
  )
}

/** How the report names where the Bun came from. */
export function describeBunSource(source: BunSource): string {
  switch (source) {
    case "option":
      return "--engine-binary"
    case "env":
      return "TOOL_TESTER_ENGINE_BINARY"
    case "path":
      return "opencode on PATH"
    case "opencode-package":
      return `installed opencode`
    case "bun-package":
      return `npm bun@${testedBunVersion}`
    case "current":
      return "the running Bun"
  }
}

// --- internal ---

function explicitBinary(options: FindBunOptions): BunLocation | undefined {
  const fromOption = options.engineBinary !== undefined
  const given = options.engineBinary ?? options.env["TOOL_TESTER_ENGINE_BINARY"]
  if (given === undefined || given === "") return undefined
  const name = fromOption ? "--engine-binary" : "TOOL_TESTER_ENGINE_BINARY"
  const source = fromOption ? "option" : "env"
  if (isCommandName(given)) {
    // `--engine-binary bun`: the program the shell would start (PATHEXT and .cmd shims on Windows).
    const found = findOnPath(given, options.env)
    if (found === undefined)
      throw new ToolTesterError(
        "ENGINE_NOT_FOUND",
        `${name} names ${given}, but no program named ${given} is on PATH, where a name without a folder is looked up: give the name of an opencode or bun on PATH, or the path of one`,
        { data: { command: given } },
      )
    return { binary: opencodeExecutable(found) ?? found, source, foundAs: found }
  }
  const binary = path.resolve(options.cwd ?? process.cwd(), given)
  if (!isExecutable(binary)) {
    throw new ToolTesterError(
      "ENGINE_NOT_FOUND",
      `${name} names ${binary}, which is not an executable file: give the path of an opencode or bun binary`,
      { data: { path: binary } },
    )
  }
  return { binary: opencodeExecutable(binary) ?? binary, source, foundAs: binary }
}

/** The opencode binary `e2e --opencode-version` installs, at the tested version. */
function cachedOpencode(): string | undefined {
  for (const name of opencodePackageNames()) {
    const binary = opencodeBinaryIn(
      path.join(cachedPackageDirectory(name, testedOpencodeVersion), "node_modules", name),
    )
    if (isExecutable(binary)) return binary
  }
  return undefined
}

function cachedBun(): string | undefined {
  for (const name of bunPackageNames()) {
    const installed = path.join(cachedPackageDirectory(name, testedBunVersion), "node_modules", name)
    const binary = path.join(installed, "bin", bunBinaryName())
    if (isExecutable(binary)) return binary
  }
  return undefined
}

/**
 * npm's platform packages of Bun for this machine, best first, in the order opencode's are chosen
 * (opencode-packages.ts). Bun names arm64 `aarch64` and puts -musl before -baseline:
 * `@oven/bun-darwin-aarch64`, `@oven/bun-linux-x64-musl-baseline`, `@oven/bun-windows-x64`.
 */
export function bunPackageNames(machine: Machine = thisMachine()): string[] {
  const platform = machine.platform === "win32" ? "windows" : machine.platform
  const base = `@oven/bun-${platform}-${machine.arch === "arm64" ? "aarch64" : machine.arch}`
  const builds = machine.arch === "x64" ? (machine.avx2 === true ? ["", "-baseline"] : ["-baseline", ""]) : [""]
  const libraries = machine.platform === "linux" ? (machine.musl === true ? ["-musl", ""] : ["", "-musl"]) : [""]
  return libraries.flatMap((library) => builds.map((build) => `${base}${library}${build}`))
}

function bunBinaryName(): string {
  return process.platform === "win32" ? "bun.exe" : "bun"
}
