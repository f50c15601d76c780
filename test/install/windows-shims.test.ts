// npm, pnpm and yarn link a package's bins on Windows through shims that cmd-shim writes: a
// `.cmd` for cmd, a `.ps1` for PowerShell and a sh script for Git Bash. Each starts the program
// the bin's first line names. A bin whose first line names `/bin/sh` cannot start in cmd or
// PowerShell; every bin of every package must start with `node`.
import { readFileSync } from "node:fs"
import path from "node:path"
import cmdShim from "cmd-shim"
import { expect, test } from "vitest"
import { listPackages } from "./_packages.ts"
import { useTmpDir } from "./_run.ts"

const bins = listPackages().flatMap(({ name, directory }) => {
  const manifest = JSON.parse(readFileSync(path.join(directory, "package.json"), "utf8")) as {
    bin?: string | Record<string, string>
  }
  const entries = typeof manifest.bin === "string" ? { [name]: manifest.bin } : (manifest.bin ?? {})
  return Object.entries(entries).map(([bin, file]) => ({ bin, file: path.join(directory, file) }))
})

test("every package has a bin to check", () => {
  expect(bins.map(({ bin }) => bin).sort()).toEqual(["create-tool", "tool-tester"])
})

test.each(bins)("the Windows shims of $bin start node", async ({ bin, file }) => {
  const folder = useTmpDir("windows-shims-")
  const shim = path.join(folder, bin)
  await cmdShim(file, shim)
  const cmd = readFileSync(`${shim}.cmd`, "utf8")
  const powershell = readFileSync(`${shim}.ps1`, "utf8")
  const sh = readFileSync(shim, "utf8")
  // The program is `node` (found on PATH, or beside the shim), given the bin's path.
  expect(cmd).toContain('SET "_prog=node"')
  expect(cmd).toContain(path.basename(file))
  expect(powershell).toContain('& "node$exe"')
  expect(sh).toMatch(/exec node\s/)
})
