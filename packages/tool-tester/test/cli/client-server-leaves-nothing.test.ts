// The opencode server behind a plugin's input.client, and its folder (`tool-tester-server-*` in the
// temp folder), end with the run whatever ends it: the run reported (the engine is then ended with
// SIGKILL, or ends itself the same way, and runs no exit hook), Ctrl-C while a tool keeps the
// engine busy, SIGKILL of the CLI, and SIGKILL of a library user's process, under both engines.
import { spawn } from "node:child_process"
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, test } from "vitest"
import { opencode, packageRoot, runCli, useTmpDir } from "../helpers.ts"
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
} })
`

const serverFolders = (tmp: string) => readdirSync(tmp).filter((name) => name.startsWith("tool-tester-server-"))

/** A library user's test process: loads the project with `engine` and calls the busy tool. */
const libraryUser = `const [directory, engine, engineBinary] = process.argv.slice(2)
const { loadTools, runTool } = await import(${JSON.stringify(path.join(packageRoot, "dist", "index.js"))})
const project = await loadTools({ directory, engine, ...(engineBinary ? { engineBinary } : {}) })
await runTool(project, "busy", {})
`

const reason = opencode.reason ?? (process.platform === "win32" ? "sends POSIX signals" : undefined)

// The bun engine's reaper is still below the engine (src/engine/reaper.ts says why): there the
// folder is left when the engine is ended, and only the server's end is checked.
describe.each(["bun", "node"] as const)("the client's server under the %s engine", { timeout: 600_000 }, (engine) => {
  const folderChecked = engine === "node"
  const engineFlags =
    engine === "bun" ? ["--engine", "bun", "--engine-binary", opencode.binary ?? ""] : ["--engine", "node"]

  // Only where it holds: under the bun engine the folder is still left (an open gap, named in
  // src/engine/reaper.ts), so no test claims it there, skipped or not.
  const folderTest = folderChecked ? test.skipIf(reason !== undefined) : () => undefined
  folderTest(
    `a run that used input.client leaves no server folder in the temp folder (${reason ?? "here"})`,
    async () => {
      const directory = tmpProject({ ".opencode/plugins/p.js": plugin })
      const tmp = useTmpDir("tool-tester-client-tmp-")
      const result = await runCli(["run", "agents", "--json", ...engineFlags], { cwd: directory, env: { TMPDIR: tmp } })
      expect(result.exitCode, result.stderr).toBe(0)
      expect(JSON.parse(result.stdout)).toMatchObject({ output: expect.stringContaining("build") })
      // The engine ran no exit hook (it was ended with SIGKILL): its reaper removes the folder.
      await expect.poll(() => serverFolders(tmp), { timeout: 30_000, interval: 100 }).toEqual([])
      expect(serversIn(directory)).toEqual([])
    },
  )

  test.skipIf(reason !== undefined).each(["SIGINT", "SIGKILL"] as const)(
    `%s to the CLI while a tool keeps the engine busy after a client call leaves no server${folderChecked ? " and no folder" : ""} (${reason ?? "here"})`,
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
      expect(serversIn(directory)).toHaveLength(1)
      expect(serverFolders(tmp)).toHaveLength(1)
      child.kill(signal)
      await exited
      await expect.poll(() => serversIn(directory), { timeout: 60_000, interval: 100 }).toEqual([])
      if (folderChecked) await expect.poll(() => serverFolders(tmp), { timeout: 60_000, interval: 100 }).toEqual([])
    },
  )

  test.skipIf(reason !== undefined)(
    `SIGKILL of a library user's process leaves no server${folderChecked ? " and no folder" : ""} (${reason ?? "here"})`,
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
      expect(serversIn(directory)).toHaveLength(1)
      child.kill("SIGKILL")
      await exited
      await expect.poll(() => serversIn(directory), { timeout: 60_000, interval: 100 }).toEqual([])
      if (folderChecked) await expect.poll(() => serverFolders(tmp), { timeout: 60_000, interval: 100 }).toEqual([])
      expect(readFileSync(ready, "utf8")).toBe("up")
    },
  )
})
