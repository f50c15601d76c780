// What the packaging linters say about the tarball itself: publint (package.json fields against
// the packed files) and arethetypeswrong (whether TypeScript resolves the types people import).
// opencode reads neither the types nor most fields, so only publint's errors are errors; the rest
// are warnings. A plugin is an ES module opencode imports, so attw's CommonJS and node10
// resolutions (its esm-only profile) are left out.
import path from "node:path"
import type { Finding } from "../doctor/finding.ts"
import type { PackedPackage } from "./pack-package.ts"

/** PUBLINT findings: publint's errors and warnings (not its suggestions) on the tarball. */
export async function publintFindings(packed: PackedPackage, tarball: Uint8Array): Promise<Finding[]> {
  const { publint } = await import("publint")
  const { formatMessage } = await import("publint/utils")
  const buffer = tarball.buffer.slice(tarball.byteOffset, tarball.byteOffset + tarball.byteLength) as ArrayBuffer
  const result = await publint({ pack: { tarball: buffer }, level: "warning" })
  const file = path.join(packed.directory, "package.json")
  return result.messages.map((message) => ({
    code: "PUBLINT",
    severity: message.type === "error" ? "error" : "warning",
    file,
    message: `publint: ${formatMessage(message, result.pkg, { color: false }) ?? message.code}`,
    data: { rule: message.code, path: message.path },
  }))
}

/** TYPES_WRONG findings: each distinct arethetypeswrong problem for ES module resolution. */
export async function typesFindings(packed: PackedPackage, tarball: Uint8Array): Promise<Finding[]> {
  const { checkPackage, createPackageFromTarballData } = await import("@arethetypeswrong/core")
  const { problemKindInfo } = await import("@arethetypeswrong/core/problems")
  const result = await checkPackage(createPackageFromTarballData(tarball))
  if (!result.types) return [] // No types at all: nothing for TypeScript users to get wrong.
  const file = path.join(packed.directory, "package.json")
  const seen = new Set<string>()
  const findings: Finding[] = []
  for (const problem of result.problems) {
    if ("resolutionKind" in problem && (problem.resolutionKind === "node10" || problem.resolutionKind === "node16-cjs"))
      continue
    if (problem.kind === "CJSResolvesToESM") continue
    const entrypoint = "entrypoint" in problem ? problem.entrypoint : undefined
    const key = `${problem.kind} ${entrypoint ?? ""}`
    if (seen.has(key)) continue
    seen.add(key)
    const info = problemKindInfo[problem.kind]
    const where =
      entrypoint === undefined
        ? ""
        : ` for ${entrypoint === "." ? packed.manifest["name"] : path.posix.join(String(packed.manifest["name"]), entrypoint)}`
    findings.push({
      code: "TYPES_WRONG",
      severity: "warning",
      file,
      message: `arethetypeswrong: ${info.title}${where}: ${info.description} (${info.docsUrl})`,
      data: { problem },
    })
  }
  return findings
}
