// ENTRY_NOT_PACKED's advice names the publish of the manager that packed the package: its prepack is
// what builds the entry before that publish packs it.
import { expect, test } from "vitest"
import type { PackedPackage } from "../../src/preflight/pack-package.ts"
import { pluginEntry } from "../../src/preflight/plugin-entry.ts"

function packedBy(packer: PackedPackage["packer"]): PackedPackage {
  return {
    directory: "/nowhere/plugin",
    tarball: "/nowhere/plugin.tgz",
    packer,
    files: [{ path: "package.json", content: Buffer.from("{}") }],
    manifest: { name: "plugin", main: "./dist/index.js", files: ["dist"] },
  }
}

test.each([
  ["npm", "npm publish"],
  ["pnpm", "pnpm publish"],
  ["yarn", "yarn npm publish"],
] as const)("an entry neither packed nor built, packed by %s: the advice names %s", (packer, publish) => {
  const { entry, findings } = pluginEntry(packedBy(packer))
  expect(entry).toBeUndefined()
  expect(findings.map((finding) => finding.code)).toEqual(["ENTRY_NOT_PACKED"])
  expect(findings[0]?.message).toContain(`build the package (a prepack script that builds makes ${publish} do it)`)
})
