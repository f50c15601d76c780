import { execFile } from "node:child_process"
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import os from "node:os"
import path from "node:path"
import { pathToFileURL } from "node:url"
import { describe, expect, onTestFinished, test } from "vitest"
import { opencode, packageRoot, runCli } from "../helpers.ts"

// Bun installs what a module imports from the registry when no node_modules folder is around
// (auto-install). opencode's Bun does not (a missing package fails its tool list), and tool-tester
// downloads nothing unless asked: the bun engine must neither fetch a tool's import nor a plugin
// named in opencode.json. A registry of our own counts the requests.
describe("the bun engine and Bun's auto-install", { timeout: 120_000 }, () => {
  test.skipIf(!opencode.binary)(
    `fetches nothing for a tool's missing import or a configured plugin (${opencode.reason ?? "opencode found"})`,
    async () => {
      const { project, env, requests } = await projectWithoutNodeModules()
      const result = await runCli(["list", "--no-global", "--json", "--engine-binary", opencode.binary!], {
        cwd: project,
        env,
      })
      expect(requests).toEqual([])
      expect(readdirSync(project)).not.toContain("bun-cache")
      expectBothMissing(result.stdout)
    },
  )
})

// The same when Bun runs the bin itself (`bun node_modules/.bin/tool-tester`, `bunx --bun`): the
// CLI's own process resolves plugins and, for e2e --init, imports the tool files; with --engine node
// its engine is that Bun too.
describe("the CLI run by Bun and Bun's auto-install", { timeout: 180_000 }, () => {
  test.skipIf(!opencode.binary)(
    `fetches nothing, whatever the command imports or resolves (${opencode.reason ?? "opencode found"})`,
    async () => {
      const { project, env, requests } = await projectWithoutNodeModules()
      const bun = { cwd: project, env: { ...env, BUN_BE_BUN: "1" }, runtime: opencode.binary! }

      const listed = await runCli(["list", "--no-global", "--json", "--engine", "node"], bun)
      expect(listed.exitCode, listed.stderr).toBe(3)
      expectBothMissing(listed.stdout)
      const init = await runCli(["e2e", "--init"], bun)
      expect(init.exitCode, init.stderr).toBe(3)
      expect(init.stderr).toContain("tool-tester-absent-package")

      expect(requests).toEqual([])
      expect(readdirSync(project)).not.toContain("bun-cache")
    },
  )
})

// A user's script run by Bun (`bun check.ts`) that calls loadTools(): the library, not the CLI, in
// a Bun whose auto-install is on. It loads the project in an engine started with --no-install;
// with a node_modules folder around (Bun does not auto-install then) it imports the tools in the
// user's own process, as before, so `bun test`'s mocks reach them.
describe("the library in Bun and Bun's auto-install", { timeout: 180_000 }, () => {
  test.skipIf(!opencode.binary)(
    `fetches nothing for a tool's missing import or a configured plugin (${opencode.reason ?? "opencode found"})`,
    async () => {
      const { project, env, requests } = await projectWithoutNodeModules()
      const result = await runLibraryInBun(project, env)
      expect(requests).toEqual([])
      expect(readdirSync(project)).not.toContain("bun-cache")
      expectBothMissing(result.stdout)
      // closeProject() ended the engine: the script waited for it (engineEnded) and then exited.
      expect(JSON.parse(result.stdout)).toMatchObject({ engineEnded: true })
    },
  )

  test.skipIf(!opencode.binary)(
    `imports the tools in the script's own process when a node_modules folder is around (${opencode.reason ?? "opencode found"})`,
    async () => {
      const { project, env, requests } = await projectWithoutNodeModules()
      mkdirSync(path.join(project, "node_modules"))
      const result = await runLibraryInBun(project, env)
      const { pid, toolPid } = JSON.parse(result.stdout) as { pid: number; toolPid: number }
      expect(toolPid).toBe(pid)
      expect(requests).toEqual([])
      expectBothMissing(result.stdout)
    },
  )
})

// --- internal ---

/**
 * Writes a script into the project that loads it with the BUILT library, adds a tool that says which
 * process imported it, and runs the script with the opencode binary acting as Bun, from the project.
 * It prints the tools, the diagnostics, its own pid and the tool's, and whether the process the tool
 * was imported in (when not its own) ended after closeProject().
 */
async function runLibraryInBun(
  project: string,
  env: Record<string, string>,
): Promise<{ stdout: string; stderr: string }> {
  writeFileSync(
    path.join(project, ".opencode", "tools", "pid.ts"),
    `export default { description: String(process.pid), args: {}, async execute() { return "" } }\n`,
  )
  const library = pathToFileURL(path.join(packageRoot, "dist", "index.js")).href
  const script = path.join(project, "check.mjs")
  writeFileSync(
    script,
    `import { closeProject, loadTools } from ${JSON.stringify(library)}
const project = await loadTools({ directory: ${JSON.stringify(project)}, global: false })
const toolPid = Number(project.tools.find((tool) => tool.id === "pid")?.description)
closeProject(project)
const alive = (pid) => { try { process.kill(pid, 0); return true } catch { return false } }
while (toolPid !== process.pid && alive(toolPid)) await new Promise((resolve) => setTimeout(resolve, 50))
console.log(JSON.stringify({
  pid: process.pid,
  toolPid,
  engineEnded: toolPid !== process.pid,
  tools: project.tools.map((tool) => tool.id),
  diagnostics: project.diagnostics.map(({ code, message }) => ({ code, message })),
}))
`,
  )
  const home = mkdtempSync(path.join(os.tmpdir(), "tool-tester-no-install-home-"))
  onTestFinished(() => rmSync(home, { recursive: true, force: true }))
  return new Promise((resolve, reject) => {
    execFile(
      opencode.binary!,
      [script],
      // A closeProject() that leaves the engine running keeps the script waiting: killed, it fails the test.
      { cwd: project, env: { ...process.env, ...env, HOME: home, BUN_BE_BUN: "1" }, timeout: 120_000 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve({ stdout, stderr }),
    )
  })
}

/**
 * A project outside this repository (no node_modules folder above it) whose tool imports a package
 * that is not installed and whose opencode.json names a plugin that is not either, and a registry of
 * our own that counts the requests, named in the environment for npm and Bun.
 */
async function projectWithoutNodeModules(): Promise<{
  project: string
  env: Record<string, string>
  requests: string[]
}> {
  const requests: string[] = []
  const registry = createServer((request, response) => {
    requests.push(request.url ?? "")
    response.writeHead(404).end()
  })
  await new Promise<void>((resolve) => registry.listen(0, "127.0.0.1", resolve))
  onTestFinished(() => void registry.close())
  const url = `http://127.0.0.1:${(registry.address() as AddressInfo).port}/`

  const project = mkdtempSync(path.join(os.tmpdir(), "tool-tester-no-install-"))
  onTestFinished(() => rmSync(project, { recursive: true, force: true }))
  mkdirSync(path.join(project, ".git"))
  mkdirSync(path.join(project, ".opencode", "tools"), { recursive: true })
  writeFileSync(
    path.join(project, ".opencode", "tools", "odd.ts"),
    `import isOdd from "tool-tester-absent-package"\nexport default { description: "Odd", args: {}, async execute() { return String(isOdd(3)) } }\n`,
  )
  writeFileSync(path.join(project, "opencode.json"), JSON.stringify({ plugin: ["tool-tester-absent-plugin"] }))
  const cache = path.join(project, "bun-cache")
  return {
    project,
    env: { NPM_CONFIG_REGISTRY: url, BUN_CONFIG_REGISTRY: url, BUN_INSTALL_CACHE_DIR: cache },
    requests,
  }
}

/** `list --json`'s diagnostics name the missing import and the missing plugin, with the command that installs it. */
function expectBothMissing(stdout: string): void {
  const { diagnostics } = JSON.parse(stdout) as { diagnostics: Array<{ code: string; message: string }> }
  expect(diagnostics).toContainEqual(
    expect.objectContaining({
      code: "IMPORT_FAILED",
      message: expect.stringContaining("tool-tester-absent-package"),
    }),
  )
  expect(diagnostics).toContainEqual(
    expect.objectContaining({
      code: "PLUGIN_LOAD_FAILED",
      message: expect.stringContaining("npm install --prefix .opencode tool-tester-absent-plugin"),
    }),
  )
}
