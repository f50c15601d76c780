// yarn 1 and yarn 2+ both answer to `yarn`, and pack by other rules (only yarn 2+ puts publishConfig's
// fields in place): a global yarn 1 without corepack is what PATH finds for a yarn 2+ package. Its
// version, asked in the package's folder (where yarn 1 hands over to the yarnPath of .yarnrc.yml,
// and corepack's yarn reads packageManager), tells them apart before anything is packed.
import path from "node:path"
import type { Finding } from "../doctor/finding.ts"
import { commandOutput } from "./_command-output.ts"
import type { PackerChoice } from "./packer.ts"

/**
 * PACKER_TOO_OLD when `program` (the yarn found for a package published with yarn 2+) is yarn 1;
 * undefined when it is yarn 2+, or says no version (its pack then fails as PACK_FAILED).
 */
export async function yarnVersionFinding(
  directory: string,
  program: string[],
  chosen: PackerChoice,
  options: { env: Record<string, string | undefined>; signal?: AbortSignal | undefined; timeoutMs: number },
): Promise<Finding | undefined> {
  const [command, ...prefix] = program
  const output = await commandOutput(command!, [...prefix, "--version"], {
    cwd: directory,
    env: options.env,
    signal: options.signal,
    timeoutMs: options.timeoutMs,
  })
  options.signal?.throwIfAborted()
  const version = /^(\d+)\.\d+\.\d+\S*/m.exec(output.stdout.trim())
  if (output.exitCode !== 0 || version === null || Number(version[1]) >= 2) return undefined
  const found = program.at(-1)!
  const { because, declared } = chosen
  // corepack runs the yarn packageManager names; with none (or a yarn 1 there), its own default yarn 1.
  const fix =
    declared !== undefined && Number(/^yarn@(\d+)/.exec(declared.spec)?.[1]) >= 2
      ? `run corepack enable (yarn is then the ${declared.spec} that ${declared.file} names)`
      : `run corepack enable, and name the yarn 2+ the package uses in the "packageManager" field of ${path.join(path.dirname(because), "package.json")} (such as "yarn@4.9.2")`
  return {
    code: "PACKER_TOO_OLD",
    severity: "error",
    file: path.join(directory, "package.json"),
    message: `the package is published with yarn 2 or later (as ${because} says), and the yarn found (${found}) is yarn ${version[0]}, whose yarn pack follows yarn 1's rules (no publishConfig fields in place): preflight packed nothing; ${fix}, then run preflight again`,
    data: { manager: "yarn", version: version[0], program: found, needed: "2 or later" },
  }
}
