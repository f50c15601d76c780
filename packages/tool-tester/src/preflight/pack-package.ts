// Packs the plugin package as it will be published, with the package manager that publishes it
// (packer.ts): its file list (`files`, .npmignore, what it always adds or leaves out), its
// lifecycle scripts (prepack, prepare), and with pnpm and yarn 2+ publishConfig's fields in the
// packed package.json. A package whose manifest holds pnpm's `workspace:` or `catalog:` versions is
// packed with pnpm, which writes the real versions in; npm would ship those protocols as they are,
// and npm cannot install them.
import { existsSync, readdirSync, readFileSync } from "node:fs"
import path from "node:path"
import type { Finding } from "../doctor/finding.ts"
import { ToolTesterError } from "../errors.ts"
import { commandOutput, lastLines, printedLast } from "./_command-output.ts"
import { findPacker, type Packer, PACKERS, packerMissingFinding, packerOf, publishOverrides } from "./packer.ts"
import { yarnVersionFinding } from "./packer-version.ts"
import { readTarball, type TarballFile } from "./_tarball.ts"

type Manifest = Record<string, unknown>

export type PackedPackage = {
  /** The package folder. */
  directory: string
  /** The tarball written. */
  tarball: string
  /** The package manager that packed it. */
  packer: Packer
  /** Every file in the tarball, paths relative to the package. */
  files: TarballFile[]
  /** The package.json in the tarball (what users install). */
  manifest: Manifest
}

const DEPENDENCY_FIELDS = ["dependencies", "peerDependencies", "optionalDependencies", "devDependencies"] as const

/** Reads DIR/package.json, or throws the usage error that says preflight needs a package folder. */
function readManifest(directory: string): Manifest {
  const file = path.join(directory, "package.json")
  if (!existsSync(file)) {
    throw new ToolTesterError(
      "PATH_NOT_FOUND",
      `${directory} has no package.json: preflight checks a plugin package; pass its folder as preflight's DIR`,
      { data: { directory } },
    )
  }
  let value: unknown
  try {
    value = JSON.parse(readFileSync(file, "utf8")) as unknown
  } catch (error) {
    // Where it breaks (JSON.parse names the position), so the fix is one look away.
    const reason = error instanceof Error ? error.message : String(error)
    throw new ToolTesterError("USAGE", `${file} is not JSON (${reason}): fix it, npm cannot pack the package`, {
      data: { file },
    })
  }
  if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Manifest
  throw new ToolTesterError("USAGE", `${file} is not a JSON object: fix it, npm cannot pack the package`, {
    data: { file },
  })
}

/**
 * Packs `directory` into `destination`. Returns the packed package and the findings about how it
 * was packed, or only findings when no tarball could be made.
 */
export async function packPackage(
  directory: string,
  options: {
    destination: string
    env: Record<string, string | undefined>
    signal?: AbortSignal | undefined
    /** Bound of the pack with its scripts: past it, everything it started is ended (PACK_TIMEOUT). */
    timeoutMs: number
  },
): Promise<{ packed: PackedPackage | undefined; findings: Finding[] }> {
  const manifest = readManifest(directory)
  const findings: Finding[] = []
  const protocols = protocolVersions(manifest)
  const chosen = packerOf(directory, manifest)
  // npm would ship pnpm's protocols as they are: pnpm packs them, wherever the lock file came from.
  const wanted: Packer = chosen.packer === "npm" && protocols.length > 0 ? "pnpm" : chosen.packer
  const program = findPacker(wanted, options.env)
  if (program === undefined) {
    if (protocols.length > 0) findings.push(protocolFinding(directory, wanted, protocols))
    const overrides = publishOverrides(manifest)
    if (wanted === chosen.packer && overrides.length > 0)
      findings.push(packerMissingFinding(directory, chosen, overrides))
  }
  // A yarn 1 on PATH for a yarn 2+ package would pack by yarn 1's rules, or fail naming `yarn pack`.
  if (program !== undefined && wanted === "yarn") {
    const tooOld = await yarnVersionFinding(directory, program, chosen, options)
    if (tooOld !== undefined) return { packed: undefined, findings: [...findings, tooOld] }
  }
  const packer = program === undefined ? "npm" : wanted
  const [command, ...prefix] = program ?? ["npm"]
  const args = PACKERS[packer].pack(options.destination)
  const { publish } = PACKERS[packer]
  const output = await commandOutput(command!, [...prefix, ...args], {
    cwd: directory,
    env: options.env,
    signal: options.signal,
    timeoutMs: options.timeoutMs,
  })
  // Ctrl-C ended the pack: no finding of a pack that failed.
  options.signal?.throwIfAborted()
  if (output.timedOut) {
    findings.push({
      code: "PACK_TIMEOUT",
      severity: "error",
      file: path.join(directory, "package.json"),
      message: `${packer} pack did not finish within ${options.timeoutMs} ms: preflight ended it and all it started; look at the package's prepack and prepare scripts (one that never ends, such as a watcher, a server or a prompt, holds ${publish} too), or give a slower build more time with --npm-timeout MS${printedLast(output)}`,
      data: { command: `${packer} pack`, timeoutMs: options.timeoutMs },
    })
    return { packed: undefined, findings }
  }
  if (output.leftRunning > 0)
    findings.push(leftRunningFinding(directory, `${packer} pack`, output.leftRunning, publish))
  const tarball = readdirSync(options.destination).find((name) => name.endsWith(".tgz"))
  if (output.exitCode !== 0 || tarball === undefined) {
    findings.push({
      code: "PACK_FAILED",
      severity: "error",
      file: path.join(directory, "package.json"),
      message: `${packer} pack failed (exit ${output.exitCode}): ${lastLines(output)}; fix it: ${publish} runs the same pack`,
    })
    return { packed: undefined, findings }
  }
  const file = path.join(options.destination, tarball)
  const files = readTarball(readFileSync(file))
  const packedManifest = files.find((entry) => entry.path === "package.json")
  return {
    packed: {
      directory,
      tarball: file,
      packer,
      files,
      manifest: packedManifest ? (JSON.parse(packedManifest.content.toString("utf8")) as Manifest) : manifest,
    },
    findings,
  }
}

/** A note that a command's scripts left processes running, which preflight ended. */
export function leftRunningFinding(
  directory: string,
  command: string,
  count: number,
  publish = "npm publish",
): Finding {
  const processes = count === 1 ? "1 process" : `${count} processes`
  return {
    code: "SCRIPT_LEFT_RUNNING",
    severity: "warning",
    file: path.join(directory, "package.json"),
    message: `${command} left ${processes} running after it exited (a prepack, prepare or install script that starts something in the background); preflight ended ${count === 1 ? "it" : "them"}, and ${publish} would leave ${count === 1 ? "it" : "them"} running: wait for what the script starts`,
    data: { command, count },
  }
}

// --- internal ---

type ProtocolVersion = { field: string; name: string; version: string }

function protocolVersions(manifest: Manifest): ProtocolVersion[] {
  const found: ProtocolVersion[] = []
  for (const field of DEPENDENCY_FIELDS) {
    const entries = manifest[field]
    if (typeof entries !== "object" || entries === null) continue
    for (const [name, version] of Object.entries(entries as Record<string, unknown>)) {
      if (typeof version === "string" && /^(workspace|catalog):/.test(version)) found.push({ field, name, version })
    }
  }
  return found
}

function protocolFinding(directory: string, packer: Packer, protocols: ProtocolVersion[]): Finding {
  const runtime = protocols.filter((entry) => entry.field !== "devDependencies")
  const shown = protocols.map((entry) => `${entry.field}.${entry.name} "${entry.version}"`).join(", ")
  return {
    code: "WORKSPACE_PROTOCOL",
    severity: runtime.length > 0 ? "error" : "warning",
    file: path.join(directory, "package.json"),
    message: `package.json has pnpm workspace versions (${shown}) and ${packer} was not found: npm publish would ship them as they are${runtime.length > 0 ? ", and npm cannot install them for users" : ""}; publish with ${PACKERS[packer].publish} (it writes the real versions), or put versions in their place`,
    data: { versions: protocols },
  }
}
