// opencode checks `engines.opencode` of a plugin it installs from npm (only those:
// docs/opencode-contract.md#plugin-specs) and does not load one whose range leaves its own version
// out. `engines.node` means nothing there: opencode runs plugins in the Bun it embeds.
import path from "node:path"
import semver from "semver"
import type { Finding } from "../doctor/finding.ts"
import type { PackedPackage } from "./pack-package.ts"

/** ENGINES_OPENCODE when `engines.opencode` is not a version range, or leaves out `opencodeVersion`. */
export function enginesFindings(packed: PackedPackage, opencodeVersion: string): Finding[] {
  const engines = packed.manifest["engines"]
  if (typeof engines !== "object" || engines === null) return []
  const range = (engines as Record<string, unknown>)["opencode"]
  if (range === undefined) return []
  const file = path.join(packed.directory, "package.json")
  if (typeof range !== "string" || semver.validRange(range) === null) {
    return [
      {
        code: "ENGINES_OPENCODE",
        severity: "error",
        file,
        message: `engines.opencode is ${JSON.stringify(range)}, not a version range: opencode cannot check it; write a range such as ">=${opencodeVersion}"`,
        data: { range },
      },
    ]
  }
  if (semver.satisfies(opencodeVersion, range, { includePrerelease: true })) return []
  return [
    {
      code: "ENGINES_OPENCODE",
      severity: "error",
      file,
      message: `engines.opencode "${range}" leaves out opencode ${opencodeVersion}: opencode ${opencodeVersion} would not load the plugin; widen the range`,
      data: { range, opencode: opencodeVersion },
    },
  ]
}
