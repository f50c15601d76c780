// `"private": true` in package.json: npm publish refuses the package (EPRIVATE, after prepublishOnly,
// where preflight runs, has passed), so users can never install it from npm. A warning, not an
// error: nothing broken reaches users (npm says why it stops), and a package kept private on
// purpose while it is written can still be checked.
import path from "node:path"
import type { Finding } from "../doctor/finding.ts"
import type { PackedPackage } from "./pack-package.ts"

/** PRIVATE_PACKAGE when the packed package.json marks the package private (any true value, as npm reads it). */
export function privateFindings(packed: PackedPackage): Finding[] {
  const value = packed.manifest["private"]
  if (!value) return []
  return [
    {
      code: "PRIVATE_PACKAGE",
      severity: "warning",
      file: path.join(packed.directory, "package.json"),
      message: `package.json has "private": ${JSON.stringify(value)}, so npm publish refuses the package (EPRIVATE) and users cannot install it from npm: remove "private" from package.json when you publish it`,
      data: { private: value },
    },
  ]
}
