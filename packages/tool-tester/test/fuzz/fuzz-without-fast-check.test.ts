import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { afterEach, expect, test } from "vitest"
import { loadFastCheck } from "../../src/fuzz/_fast-check.ts"
import { packageRoot } from "../helpers.ts"

const folders: string[] = []
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})

function write(file: string, content: object): void {
  mkdirSync(path.dirname(file), { recursive: true })
  writeFileSync(file, JSON.stringify(content))
}

test("the fuzz entry without fast-check fails with EXTRA_NOT_INSTALLED and the install command, as the CLI does", async () => {
  const project = mkdtempSync(path.join(os.tmpdir(), "fuzz-entry-"))
  folders.push(project)
  write(path.join(project, ".opencode", "package.json"), {})
  write(path.join(project, ".opencode", "package-lock.json"), {})
  const installed = path.join(project, ".opencode/node_modules/@opencode-ai/tool-tester")
  const manifest = JSON.parse(readFileSync(path.join(packageRoot, "package.json"), "utf8"))
  write(path.join(installed, "package.json"), { name: manifest.name, peerDependencies: manifest.peerDependencies })
  write(path.join(installed, "dist/fuzz/index.js"), {})
  const missing = Object.assign(new Error("Cannot find package 'fast-check'"), { code: "ERR_MODULE_NOT_FOUND" })
  const loading = loadFastCheck({
    from: path.join(installed, "dist/fuzz/index.js"),
    importFastCheck: () => Promise.reject(missing),
  })
  await expect(loading).rejects.toMatchObject({
    code: "EXTRA_NOT_INSTALLED",
    message: expect.stringContaining("install with: npm install --prefix"),
  })
  await expect(loading).rejects.toMatchObject({
    message: expect.stringMatching(/-D fast-check@\d+\.\d+\.\d+$/),
  })
})
