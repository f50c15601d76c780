import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { programOutput } from "../runtime/program-output.ts"
import { MODELLED_OPENCODE_VERSION, OLDEST_CHECKED_OPENCODE_VERSION } from "./opencode-version.ts"

/**
 * The version of an opencode binary: from the npm package holding it (`opencode-<platform>`, read,
 * not run), else what `opencode --version` prints; undefined when neither says.
 */
export async function opencodeVersionOf(binary: string): Promise<string | undefined> {
  const fromPackage = opencodePackageVersion(binary)
  if (fromPackage !== undefined) return fromPackage
  const printed = await printedVersion(binary, 15_000)
  return /^\s*v?(\d+\.\d+\.\d+\S*)\s*$/.exec(printed ?? "")?.[1]
}

/**
 * What `opencode --version` prints (trimmed), or undefined when it fails. opencode makes its
 * folders (`~/.config/opencode` with a .gitignore, data, cache, state) on every start, even to
 * print its version: here they are made in a throw-away folder, so asking writes nothing into the
 * user's home.
 */
export async function printedVersion(binary: string, timeoutMs: number): Promise<string | undefined> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "tool-tester-opencode-version-"))
  try {
    const env: Record<string, string | undefined> = { ...process.env, TMPDIR: scratch, TEMP: scratch, TMP: scratch }
    for (const [variable, folder] of XDG_FOLDERS) env[variable] = path.join(scratch, folder)
    delete env["BUN_BE_BUN"]
    const { error, stdout } = await programOutput(binary, ["--version"], { env, timeout: timeoutMs })
    return error === null ? stdout.trim() : undefined
  } finally {
    rmSync(scratch, { recursive: true, force: true, maxRetries: 3 })
  }
}

const XDG_FOLDERS = [
  ["XDG_CONFIG_HOME", "config"],
  ["XDG_DATA_HOME", "data"],
  ["XDG_CACHE_HOME", "cache"],
  ["XDG_STATE_HOME", "state"],
] as const

/**
 * What to tell a user whose opencode is `found`, when it differs from the modelled version in a
 * way that matters: another major or minor, or any version older than the oldest checked. Else
 * undefined (a newer patch of the same minor). `verifyCommand` is the command, as the user pastes
 * it, that checks tool-tester against that very binary: without `--opencode`, verify and e2e may
 * run another opencode (the project's, or tool-tester's) than the one warned about.
 */
export function versionWarning(found: string, binary: string, verifyCommand: string): string | undefined {
  const have = parse(found)
  const modelled = parse(MODELLED_OPENCODE_VERSION)
  const oldest = parse(OLDEST_CHECKED_OPENCODE_VERSION)
  if (have === undefined || modelled === undefined || oldest === undefined) return undefined
  const otherMinor = have[0] !== modelled[0] || have[1] !== modelled[1]
  if (!otherMinor && compare(have, oldest) >= 0) return undefined
  const known =
    have[0] >= 2
      ? "opencode 2 has another plugin API (@opencode/plugin, Plugin.define) that tool-tester does not model"
      : compare(have, oldest) < 0
        ? "older 1.x versions may discover, name, convert and truncate tools differently (docs/fidelity.md#opencode-versions lists what is known)"
        : "a newer minor may change any of it (docs/fidelity.md#opencode-versions)"
  return `your opencode is ${found} (${binary}) and tool-tester models opencode ${MODELLED_OPENCODE_VERSION}: ${known}; \`${verifyCommand}\` shows which of tool-tester's predictions hold for it (e2e --init, given the same --opencode, writes a script and the command that runs your tools in it), or use opencode ${MODELLED_OPENCODE_VERSION}`
}

/**
 * The version of the opencode npm package holding `binary` (`<package>/bin/opencode(.exe)`, read,
 * not run), or undefined when it is in none: a binary there is opencode.
 */
export function opencodePackageVersion(binary: string): string | undefined {
  const manifestFile = path.join(path.dirname(path.dirname(binary)), "package.json")
  try {
    const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as { name?: unknown; version?: unknown }
    const name = typeof manifest.name === "string" ? manifest.name : ""
    if (!/^opencode(-ai|-[a-z0-9-]+)?$/.test(name) || typeof manifest.version !== "string") return undefined
    return manifest.version
  } catch {
    return undefined
  }
}

// --- internal ---

function parse(version: string): [number, number, number] | undefined {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version)
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined
}

function compare(left: [number, number, number], right: [number, number, number]): number {
  for (let index = 0; index < 3; index++) {
    const difference = left[index]! - right[index]!
    if (difference !== 0) return difference
  }
  return 0
}
