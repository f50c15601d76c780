import { shellWord, userShell } from "../_shell-quote.ts"
import { findOnPath, findOpencode } from "../opencode/opencode-binary.ts"
import { opencodeVersionOf, versionWarning } from "../opencode/opencode-version-check.ts"
import type { Finding } from "./finding.ts"

/**
 * OPENCODE_VERSION: each opencode the user runs (the project's, the one on PATH, the bun engine's)
 * whose version differs from the modelled one in a way that matters (docs/fidelity.md#opencode-versions).
 */
export async function opencodeVersionFindings(options: {
  directory: string
  env: Record<string, string | undefined>
  /** The bun engine's binary, when it is an opencode. */
  engineBinary?: string | undefined
  /** The command that runs this tool-tester where the user is (`npx --no --prefix .opencode tool-tester`). */
  toolTester: string
}): Promise<Finding[]> {
  const binaries = new Set<string>()
  const project = findOpencode({ directory: options.directory, path: false })
  if (project !== undefined) binaries.add(project)
  const onPath = findOnPath("opencode", options.env)
  if (onPath !== undefined) binaries.add(onPath)
  if (options.engineBinary !== undefined) binaries.add(options.engineBinary)
  const findings: Finding[] = []
  for (const binary of binaries) {
    const version = await opencodeVersionOf(binary)
    const warning =
      version === undefined
        ? undefined
        : versionWarning(
            version,
            binary,
            `${options.toolTester} verify --opencode ${shellWord(binary, userShell(options.env))}`,
          )
    if (warning === undefined) continue
    findings.push({ code: "OPENCODE_VERSION", severity: "warning", file: null, message: warning, data: { version } })
  }
  return findings
}
