import { cpSync, existsSync, mkdirSync, readdirSync, statSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, expect, it } from "vitest"
import { runE2E } from "../../src/e2e/run-e2e.ts"
import { leftoverFolders, makeTempParent } from "./leftovers.ts"

// Node stands in for opencode (it fails on opencode's arguments, on every platform): what matters
// here is what runE2E does to the folder around it.
const fixture = fileURLToPath(new URL("../fixtures/e2e-round-trip", import.meta.url))
const tempParent = makeTempParent()
afterAll(() => tempParent.remove())

function listing(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .map(
      (entry) => `${join(entry.parentPath, entry.name).slice(folder.length)} ${entry.isSymbolicLink() ? "link" : ""}`,
    )
    .sort()
}

it("runs in place without leaving its plugin install or lockfile in the project", async () => {
  const project = join(tempParent.path, "project")
  cpSync(fixture, project, { recursive: true })
  const before = listing(project)
  const run = runE2E({
    directory: project,
    copyProject: false,
    opencode: process.execPath,
    tempDirectory: join(tempParent.path, "sandboxes"),
    script: { turns: [{ text: "hi" }] },
  })
  await expect(run).rejects.toMatchObject({ code: "OPENCODE_FAILED" })
  expect(listing(project)).toEqual(before)
  // runE2E made the sandboxes folder for this run, and removes it with what it held.
  expect(existsSync(join(tempParent.path, "sandboxes"))).toBe(false)
  expect(leftoverFolders(tempParent.path)).toEqual(["project"])
})

it("keeps a copied project's own node_modules untouched when it adds the plugin package", async () => {
  const project = join(tempParent.path, "with-modules")
  cpSync(fixture, project, { recursive: true })
  mkdirSync(join(project, ".opencode", "node_modules", "left-pad"), { recursive: true })
  const before = listing(project)
  const run = runE2E({
    directory: project,
    opencode: process.execPath,
    tempDirectory: join(tempParent.path, "sandboxes"),
    script: { turns: [{ text: "hi" }] },
  })
  await expect(run).rejects.toMatchObject({ code: "OPENCODE_FAILED" })
  expect(listing(project)).toEqual(before)
  expect(statSync(join(project, ".opencode", "node_modules")).isDirectory()).toBe(true)
})
