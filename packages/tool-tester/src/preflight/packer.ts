// Which package manager packs a plugin package: the one its publish runs. pnpm and yarn 2+ put
// publishConfig's fields (main, exports, module, types, bin, ...) in place of the top-level ones in
// the package.json they pack; npm, yarn 1 and Bun (`bun pm pack`, 1.3.14) keep the top-level ones,
// as npm does, so their packages are packed with npm. The package's manager is the one whose lock
// file is in its folder or a folder above (a workspace's root), else the one the nearest
// `packageManager` field names (the package's own, else the workspace root's).
import { existsSync, readFileSync } from "node:fs"
import path from "node:path"
import { isRecord } from "../_is-record.ts"
import type { Finding } from "../doctor/finding.ts"
import { installMark } from "../package-manager.ts"
import { findProgram } from "../runtime/find-program.ts"

export type Packer = "npm" | "pnpm" | "yarn"

type PackerWords = {
  /** The arguments that pack the package into `destination`. */
  pack(destination: string): string[]
  /** The command that publishes with it. */
  publish: string
  /** How to install it. */
  install: string
}

export const PACKERS: Readonly<Record<Packer, PackerWords>> = {
  npm: {
    pack: (destination) => ["pack", "--json", "--pack-destination", destination],
    publish: "npm publish",
    install: "",
  },
  pnpm: {
    pack: (destination) => ["pack", "--pack-destination", destination],
    publish: "pnpm publish",
    install: "npm install -g pnpm, or corepack enable pnpm",
  },
  // A name of its own for the tarball: yarn's `%s-%v` placeholders would meet cmd.exe's `%` on Windows.
  yarn: {
    pack: (destination) => ["pack", "--out", path.join(destination, "package.tgz")],
    publish: "yarn npm publish",
    install: "corepack enable yarn",
  },
}

/** Which package manager packs the package, what says so, and the `packageManager` field that names it (the nearest). */
export type PackerChoice = { packer: Packer; because: string; declared: DeclaredManager | undefined }

/** A `packageManager` field (`yarn@4.9.2`) and the package.json it is in. */
type DeclaredManager = { spec: string; file: string }

/**
 * The package manager whose pack the package in `directory` gets when published, and what says so:
 * the nearest lock file (the package's folder or a folder above: a workspace's root), else the
 * nearest `packageManager` field, looked up the same way (corepack reads the nearest one too).
 */
export function packerOf(directory: string, manifest: Record<string, unknown>): PackerChoice {
  const declared = declaredManager(directory, manifest)
  const mark = installMark(directory)
  // An empty yarn.lock only marks a yarn 2+ project's root (`touch yarn.lock`): the field says which yarn.
  const lock = mark?.manager === "yarn" && path.basename(mark.file) === "yarn.lock" ? yarnLock(mark.file) : undefined
  if (mark !== undefined && lock !== "empty") {
    const packer = mark.manager === "pnpm" ? "pnpm" : lock === "berry" ? "yarn" : "npm"
    return { packer, because: mark.file, declared }
  }
  const match = declared === undefined ? null : /^(pnpm|yarn)@(\d+)/.exec(declared.spec)
  const packer = match?.[1] === "pnpm" ? "pnpm" : match?.[1] === "yarn" && Number(match[2]) >= 2 ? "yarn" : "npm"
  const because =
    declared === undefined
      ? `"packageManager": null`
      : `"packageManager": ${JSON.stringify(declared.spec)} in ${declared.file}`
  return { packer, because, declared }
}

/**
 * The program that runs `packer`: the one running this (npm_execpath under `pnpm run`, `yarn run`),
 * else on PATH as the user's shell finds it (on Windows pnpm.cmd, never npm's extensionless POSIX
 * script; started by start-program.ts); undefined when it is not installed.
 */
export function findPacker(packer: Packer, env: Record<string, string | undefined>): string[] | undefined {
  if (packer === "npm") return ["npm"]
  const execPath = env["npm_execpath"]
  if (execPath && path.basename(execPath).toLowerCase().includes(packer) && existsSync(execPath)) {
    return /\.(c?js|mjs)$/.test(execPath) ? [process.execPath, execPath] : [execPath]
  }
  const found = findProgram(packer, env)
  return found === undefined ? undefined : [found]
}

/** The publishConfig fields pnpm and yarn 2+ pack in place of the top-level ones (npm's own settings aside). */
export function publishOverrides(manifest: Record<string, unknown>): string[] {
  const config = manifest["publishConfig"]
  if (!isRecord(config)) return []
  return Object.keys(config).filter((key) => !NPM_SETTINGS.has(key) && !key.endsWith(":registry"))
}

/** The package's manager is not installed: packed with npm, which leaves publishConfig's fields out. */
export function packerMissingFinding(directory: string, chosen: PackerChoice, overrides: string[]): Finding {
  const { packer, because } = chosen
  const fields = overrides.map((field) => `publishConfig.${field}`).join(", ")
  return {
    code: "PACKER_NOT_FOUND",
    severity: "warning",
    file: path.join(directory, "package.json"),
    message: `the package is published with ${packer} (as ${because} says), whose pack puts ${fields} in place of the top-level fields, and ${packer} was not found: preflight packed with npm, which keeps the top-level ones, so it checked another package.json than ${PACKERS[packer].publish} uploads; install ${packer} (${PACKERS[packer].install}) and run preflight again`,
    data: { manager: packer, packer: "npm", overrides },
  }
}

// --- internal ---

/** publishConfig's keys that npm reads as settings of its own publish, not fields of the package. */
const NPM_SETTINGS = new Set(["access", "registry", "tag", "provenance"])

/** The nearest `packageManager` field: the package's own, else that of a folder above (a workspace's root). */
function declaredManager(directory: string, manifest: Record<string, unknown>): DeclaredManager | undefined {
  for (let folder = directory; ; folder = path.dirname(folder)) {
    const file = path.join(folder, "package.json")
    const spec = folder === directory ? manifest["packageManager"] : readJson(file)?.["packageManager"]
    if (typeof spec === "string") return { spec, file }
    if (path.dirname(folder) === folder) return undefined
  }
}

/** A JSON object file, or undefined when it is missing or is none. */
function readJson(file: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(readFileSync(file, "utf8"))
    return isRecord(value) ? value : undefined
  } catch {
    return undefined
  }
}

/** A yarn 2+ lock file (it starts with `__metadata`), yarn 1's, or an empty one. */
function yarnLock(file: string): "berry" | "classic" | "empty" {
  let text: string
  try {
    text = readFileSync(file, "utf8")
  } catch {
    return "classic"
  }
  if (text.trim() === "") return "empty"
  return /^__metadata:/m.test(text) ? "berry" : "classic"
}
