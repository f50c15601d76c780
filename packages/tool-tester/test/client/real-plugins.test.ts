// Four plugin packages from npm that call opencode through `input.client`, installed in a project
// as users install them, listed and run by tool-tester (bun engine, the real server behind the
// client) and by the real opencode binary (e2e), and compared (docs/fidelity.md#inputclient):
//   opencode-sonarqube        awaits client.app.log() in its plugin function
//   opencode-supermemory      starts client.provider.list() in an async function it does not await
//   opencode-skills           client.session.prompt({ noReply: true }) in execute
//   @tarquinen/opencode-dcp   client.session.messages() in execute
// The packages come from the npm registry (test/fixtures/real-plugins: package.json and
// package-lock.json, exact versions), installed once with npm into a cache folder kept across
// runs ($XDG_CACHE_HOME/opencode-tool-tester-tests); nothing else goes to the network.
import { spawnSync } from "node:child_process"
import { createHash } from "node:crypto"
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from "vitest"
import type { E2EResult } from "../../src/e2e/e2e-result.ts"
import { runE2E } from "../../src/e2e/run-e2e.ts"
import type { RunResult, ToolProject } from "../../src/index.ts"
import { closeProject, loadTools, runTool } from "../../src/index.ts"
import { fixture, opencode, runCli, useTmpDir } from "../helpers.ts"
import { makeTempParent } from "../e2e/leftovers.ts"

const fixtureDirectory = fixture("real-plugins")

/** What the plugins are configured with: a SonarQube that refuses connections, no Supermemory key. */
const pluginEnv = { SONAR_HOST_URL: "http://127.0.0.1:1", SONAR_USER: "admin", SONAR_PASSWORD: "dummy" }

/** One call per plugin tool, in the order of the e2e script (the first is the session's first call). */
const calls: Array<{ tool: string; args: Record<string, unknown> }> = [
  { tool: "compress", args: { topic: "t", content: [{ startId: "m0001", endId: "m0001", summary: "s" }] } },
  { tool: "skills_greeting", args: {} },
  { tool: "supermemory", args: { mode: "help" } },
  { tool: "sonarqube", args: { action: "status" } },
]

/**
 * The fixture's packages, installed with npm into a cache folder named by a hash of its
 * package.json and lockfile (so a changed version installs afresh), once per machine.
 */
function installedPackages(): string {
  const manifest = readFileSync(path.join(fixtureDirectory, "package.json"))
  const lockfile = readFileSync(path.join(fixtureDirectory, "package-lock.json"))
  const key = createHash("sha256").update(manifest).update(lockfile).digest("hex").slice(0, 16)
  const cacheRoot = path.join(
    process.env["XDG_CACHE_HOME"] ?? path.join(os.homedir(), ".cache"),
    "opencode-tool-tester-tests",
  )
  const installed = path.join(cacheRoot, `real-plugins-${key}`)
  if (existsSync(path.join(installed, "node_modules", ".package-lock.json"))) return installed
  mkdirSync(cacheRoot, { recursive: true })
  const staging = mkdtempSync(path.join(cacheRoot, "installing-"))
  cpSync(path.join(fixtureDirectory, "package.json"), path.join(staging, "package.json"))
  cpSync(path.join(fixtureDirectory, "package-lock.json"), path.join(staging, "package-lock.json"))
  // `npm install` with the lockfile installs the locked versions (`npm ci` refuses this lockfile:
  // npm 11 leaves @opentui/core's optional platform packages out of it, then says it is out of sync).
  // Without the npm_* variables of a test run started by a package manager (npm_config_local_prefix
  // would point npm at the repository); the npm cache stays the user's.
  const env: Record<string, string> = {
    npm_config_cache: process.env["npm_config_cache"] ?? path.join(os.homedir(), ".npm"),
  }
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && !/^npm_/i.test(key)) env[key] = value
  const npm = spawnSync("npm", ["install", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: staging,
    env,
    encoding: "utf8",
    shell: process.platform === "win32",
    timeout: 600_000,
  })
  if (npm.status !== 0) {
    rmSync(staging, { recursive: true, force: true })
    throw new Error(`npm install of the real plugins failed (${npm.status ?? npm.signal}): ${npm.stderr}`)
  }
  try {
    renameSync(staging, installed)
  } catch {
    // Another run installed it meanwhile.
    rmSync(staging, { recursive: true, force: true })
  }
  return installed
}

/** A project that lists the four packages in its opencode.json, with their node_modules and a skill. */
function pluginProject(parent: string): string {
  const directory = mkdtempSync(path.join(parent, "project-"))
  mkdirSync(path.join(directory, ".git"))
  cpSync(path.join(fixtureDirectory, "opencode.json"), path.join(directory, "opencode.json"))
  cpSync(path.join(fixtureDirectory, ".opencode"), path.join(directory, ".opencode"), { recursive: true })
  symlinkSync(path.join(installedPackages(), "node_modules"), path.join(directory, "node_modules"), "junction")
  return directory
}

function toolNames(result: E2EResult): string[] {
  return (result.tools ?? []).map((tool) => (tool as { function: { name: string } }).function.name)
}

/** The tool parts opencode stored for the calls, by tool: what the tool returned, before any hook of the next request. */
function storedCalls(result: E2EResult): Map<string, { status: string; output?: string; error?: string }> {
  const parts = new Map<string, { status: string; output?: string; error?: string }>()
  for (const event of result.events as Array<{ type: string; part?: { tool?: string; state?: never } }>) {
    if (event.type === "tool_use" && event.part?.tool && event.part.state) parts.set(event.part.tool, event.part.state)
  }
  return parts
}

describe.skipIf(!opencode.binary)(
  `real plugin packages that use input.client, against opencode (${opencode.reason ?? "bun engine and e2e"})`,
  { timeout: 900_000 },
  () => {
    let directory: string
    let e2e: E2EResult
    let project: ToolProject
    let pluginHome: string
    const runs = new Map<string, RunResult>()
    const tempParent = makeTempParent()
    const saved: Record<string, string | undefined> = {}

    // One install (cached), one e2e run and one loaded project serve every test of this file.
    beforeAll(async () => {
      directory = pluginProject(tempParent.path)
      // The plugins write in the user's home (a log, a config file), as they do under opencode: here
      // that is a throw-away one, never the developer's.
      pluginHome = mkdtempSync(path.join(tempParent.path, "plugins-home-"))
      for (const [key, value] of Object.entries({ ...pluginEnv, HOME: pluginHome, USERPROFILE: pluginHome })) {
        saved[key] = process.env[key]
        process.env[key] = value
      }
      e2e = await runE2E({
        directory,
        tempDirectory: tempParent.path,
        timeoutMs: 300_000,
        script: {
          prompt: "Use the plugins.",
          turns: [...calls.map((call) => ({ calls: [call] })), { text: "done" }],
        },
      })
      const home = mkdtempSync(path.join(tempParent.path, "home-"))
      project = await loadTools({
        directory,
        home,
        env: { ...process.env, XDG_CONFIG_HOME: path.join(home, ".config") },
        engine: "bun",
        ...(opencode.binary ? { engineBinary: opencode.binary } : {}),
      })
      for (const call of calls)
        runs.set(call.tool, await runTool(project, call.tool, call.args, { timeoutMs: 300_000 }))
    }, 900_000)

    // The plugins log as they run, and sonarqube's bootstrap goes on after its call: what the bun
    // engine prints reaches this process's console (relayed-console.ts) during whichever test runs then.
    beforeEach(() => {
      vi.spyOn(console, "log").mockImplementation(() => {})
      vi.spyOn(console, "error").mockImplementation(() => {})
    })

    afterAll(() => {
      if (project) closeProject(project)
      tempParent.remove()
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key]
        else process.env[key] = value
      }
    })

    test("the plugins' own files go to the test's home, not the developer's", () => {
      // opencode-supermemory logs to ~/.opencode-supermemory.log when it starts.
      expect(existsSync(path.join(pluginHome, ".opencode-supermemory.log"))).toBe(true)
    })

    test("opencode loads all four and runs the script", () => {
      expect(e2e.errors.filter((error) => error.source !== "stderr")).toEqual([])
      expect(e2e.exitCode).toBe(0)
      expect([...storedCalls(e2e).keys()]).toEqual(calls.map((call) => call.tool))
    })

    test("tool-tester list loads them with no diagnostic and offers the tools opencode offers, in its order", async () => {
      const home = useTmpDir("tool-tester-home-")
      const listed = await runCli(["list", "--json", "--engine", "bun", "--dir", directory], {
        home,
        env: { ...pluginEnv, ...(opencode.binary ? { TOOL_TESTER_ENGINE_BINARY: opencode.binary } : {}) },
      })
      expect(listed.exitCode, listed.stderr).toBe(0)
      const { tools, diagnostics } = JSON.parse(listed.stdout) as {
        tools: Array<{ id: string; source: string; plugin?: string }>
        diagnostics: unknown[]
      }
      expect(diagnostics).toEqual([])
      // The server behind the client loaded the installed packages: it downloaded none into the user's cache.
      expect(existsSync(path.join(home, ".cache", "opencode", "packages"))).toBe(false)
      expect(tools.map((tool) => tool.id)).toEqual(toolNames(e2e))
      expect(tools.filter((tool) => tool.source === "plugin").map((tool) => [tool.id, tool.plugin])).toEqual([
        ["compress", "@tarquinen/opencode-dcp@3.1.14"],
        ["skills_greeting", "opencode-skills@0.1.7"],
        ["sonarqube", "opencode-sonarqube@2.2.0"],
        ["supermemory", "opencode-supermemory@2.0.10"],
      ])
      expect(project.diagnostics).toEqual([])
    })

    test.each(calls)("a call of $tool gives what opencode's call gave", ({ tool }) => {
      const stored = storedCalls(e2e).get(tool)
      const run = runs.get(tool)
      expect(run?.status).toBe(stored?.status)
      expect(run?.output).toBe(stored?.output)
    })

    test("what each call returned, and what it did through the client", () => {
      // DCP read the session's messages (the user's, m0001) and compressed it.
      expect(runs.get("compress")?.output).toBe("Compressed 1 messages into [Compressed conversation section].")
      // opencode-skills put the skill into the session with two session.prompt({ noReply }) calls,
      // which the next model request shows in opencode; in tool-tester they answered (else execute throws).
      expect(runs.get("skills_greeting")?.output).toBe("Launching skill: greeting")
      const withSkill = e2e.requests
        .map((request) => JSON.stringify(request))
        .filter(
          (request) => request.includes("skill is loading") && request.includes("Say hello, then the person's name."),
        )
      expect(withSkill).not.toEqual([])
      // No key: supermemory says so (its init's provider.list() ran after init, in both).
      expect(runs.get("supermemory")?.output).toBe(
        '{"success":false,"error":"SUPERMEMORY_API_KEY not set. Set it in your environment to use Supermemory."}',
      )
      // The dummy SonarQube refuses connections: the plugin's own message, with the configured URL.
      expect(runs.get("sonarqube")?.output).toContain("Cannot connect to SonarQube server at http://127.0.0.1:1")
    })
  },
)
