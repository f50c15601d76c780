// The opencode server behind a plugin's input.client, and its folder (`tool-tester-server-*`), end
// with the run whatever ends it: the run reported (the engine is then ended with SIGKILL, or ends
// itself the same way, and runs no exit hook), a tool that calls process.exit, Ctrl-C while a tool
// keeps the engine busy, SIGKILL of the CLI, and SIGKILL of a library user's process, under both
// engines. Nothing is left in the temp folder but tool-tester's per-user cache folder, and nothing
// of the run in that.
import { spawn } from "node:child_process"
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, test } from "vitest"
import { jsonError, opencode, packageRoot, runCli, useTmpDir } from "../helpers.ts"
import { serversIn } from "../support/servers.ts"
import { tmpProject } from "../support/tmp-project.ts"

const plugin = `import { writeFileSync } from "node:fs"
export const P = async ({ client }) => ({ tool: {
  agents: { description: "", args: {}, execute: async () => (await client.app.agents()).data.map((agent) => agent.name).join(",") },
  busy: { description: "", args: {}, execute: async () => {
    await client.app.log({ body: { service: "s", level: "info", message: "m" } })
    writeFileSync(process.env.READY_FILE, "up")
    for (;;) {}
  } },
  exits: { description: "", args: {}, execute: async () => {
    await client.app.log({ body: { service: "s", level: "info", message: "m" } })
    process.exit(0)
  } },
} })
`

/** What a run left in the temp folder `tmp`: anything but the per-user cache folder, and what of a run is in that. */
const leftIn = (tmp: string): string[] => {
  const cache = `opencode-tool-tester-${process.getuid?.() ?? ""}`
  const outside = readdirSync(tmp).filter((name) => !name.startsWith("opencode-tool-tester-"))
  const inCache = existsSync(path.join(tmp, cache))
    ? readdirSync(path.join(tmp, cache)).filter((name) => !["analyzed", "modules", "data"].includes(name))
    : []
  return [...outside, ...inCache.map((name) => path.join(cache, name))]
}
const serverFolders = (tmp: string): string[] =>
  readdirSync(tmp, { recursive: true, encoding: "utf8" }).filter((name) =>
    path.basename(name).startsWith("tool-tester-server-"),
  )

/** A library user's test process: loads the project with `engine` and calls the busy tool. */
const libraryUser = `const [directory, engine, engineBinary] = process.argv.slice(2)
const { loadTools, runTool } = await import(${JSON.stringify(path.join(packageRoot, "dist", "index.js"))})
const project = await loadTools({ directory, engine, ...(engineBinary ? { engineBinary } : {}) })
await runTool(project, "busy", {})
`

const reason = opencode.reason ?? (process.platform === "win32" ? "sends POSIX signals" : undefined)

describe.each(["bun", "node"] as const)("the client's server under the %s engine", { timeout: 600_000 }, (engine) => {
  const engineFlags =
    engine === "bun" ? ["--engine", "bun", "--engine-binary", opencode.binary ?? ""] : ["--engine", "node"]

  test.skipIf(reason !== undefined)(
    `a run that used input.client leaves nothing in the temp folder (${reason ?? "here"})`,
    async () => {
      const directory = tmpProject({ ".opencode/plugins/p.js": plugin })
      const tmp = useTmpDir("tool-tester-client-tmp-")
      const result = await runCli(["run", "agents", "--json", "--timeout", "240000", ...engineFlags], {
        cwd: directory,
        env: { TMPDIR: tmp },
      })
      expect(result.exitCode, result.stderr).toBe(0)
      expect(JSON.parse(result.stdout)).toMatchObject({ output: expect.stringContaining("build") })
      // The engine ran no exit hook (it was ended with SIGKILL): the CLI removed its folder.
      expect(leftIn(tmp)).toEqual([])
      expect(serverFolders(tmp)).toEqual([])
      expect(serversIn(directory)).toEqual([])
    },
  )

  test.skipIf(reason !== undefined)(
    `a tool that calls process.exit after a client call leaves nothing in the temp folder (${reason ?? "here"})`,
    async () => {
      const directory = tmpProject({ ".opencode/plugins/p.js": plugin })
      const tmp = useTmpDir("tool-tester-client-tmp-")
      const result = await runCli(["run", "exits", "--json", "--timeout", "240000", ...engineFlags], {
        cwd: directory,
        env: { TMPDIR: tmp },
      })
      expect(result.exitCode, result.stderr).toBe(4)
      expect(jsonError(result).code).toBe("TOOL_EXITED")
      expect(leftIn(tmp)).toEqual([])
      expect(serverFolders(tmp)).toEqual([])
      await expect.poll(() => serversIn(directory), { timeout: 60_000, interval: 100 }).toEqual([])
    },
  )

  test.skipIf(reason !== undefined).each(["SIGINT", "SIGKILL"] as const)(
    `%s to the CLI while a tool keeps the engine busy after a client call leaves no server and nothing in the temp folder (${reason ?? "here"})`,
    async (signal) => {
      const directory = tmpProject({ ".opencode/plugins/p.js": plugin })
      const tmp = useTmpDir("tool-tester-client-tmp-")
      const ready = path.join(useTmpDir(), "ready")
      const child = spawn(process.execPath, [path.join(packageRoot, "bin.js"), "run", "busy", ...engineFlags], {
        cwd: directory,
        env: { ...process.env, NO_COLOR: "1", TMPDIR: tmp, READY_FILE: ready },
        stdio: "ignore",
      })
      const exited = new Promise((resolve) => child.once("exit", resolve))
      await expect.poll(() => existsSync(ready), { timeout: 300_000, interval: 100 }).toBe(true)
      // One server (a process it starts for a moment carries the same environment: polled past it).
      await expect.poll(() => serversIn(directory), { timeout: 60_000, interval: 100 }).toHaveLength(1)
      expect(serverFolders(tmp)).toHaveLength(1)
      child.kill(signal)
      await exited
      await expect.poll(() => serversIn(directory), { timeout: 60_000, interval: 100 }).toEqual([])
      await expect.poll(() => [...leftIn(tmp), ...serverFolders(tmp)], { timeout: 60_000, interval: 100 }).toEqual([])
    },
  )

  test.skipIf(reason !== undefined)(
    `SIGKILL of a library user's process leaves no server and nothing in the temp folder (${reason ?? "here"})`,
    async () => {
      const directory = tmpProject({ ".opencode/plugins/p.js": plugin })
      const tmp = useTmpDir("tool-tester-client-tmp-")
      const ready = path.join(useTmpDir(), "ready")
      const script = path.join(useTmpDir(), "user.mjs")
      writeFileSync(script, libraryUser)
      const child = spawn(process.execPath, [script, directory, engine, engine === "bun" ? opencode.binary! : ""], {
        cwd: directory,
        env: { ...process.env, TMPDIR: tmp, READY_FILE: ready },
        stdio: "ignore",
      })
      const exited = new Promise((resolve) => child.once("exit", resolve))
      await expect.poll(() => existsSync(ready), { timeout: 300_000, interval: 100 }).toBe(true)
      // One server (a process it starts for a moment carries the same environment: polled past it).
      await expect.poll(() => serversIn(directory), { timeout: 60_000, interval: 100 }).toHaveLength(1)
      child.kill("SIGKILL")
      await exited
      await expect.poll(() => serversIn(directory), { timeout: 60_000, interval: 100 }).toEqual([])
      await expect.poll(() => [...leftIn(tmp), ...serverFolders(tmp)], { timeout: 60_000, interval: 100 }).toEqual([])
      expect(readFileSync(ready, "utf8")).toBe("up")
    },
  )
})
