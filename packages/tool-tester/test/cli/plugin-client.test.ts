// The opencode server behind plugins' input.client, from the built CLI: it ends with the run, also
// when the tool ends its engine with process.exit or the run is interrupted, under both engines.
import { spawn } from "node:child_process"
import path from "node:path"
import { describe, expect, test } from "vitest"
import { opencode, packageRoot, runCli } from "../helpers.ts"
import { serversHidden, serversIn } from "../support/servers.ts"
import { tmpProject } from "../support/tmp-project.ts"

const plugin = `export const P = async ({ client }) => ({ tool: {
  slow: { description: "", args: {}, execute: async () => { await client.app.log({ body: { service: "s", level: "info", message: "m" } }); console.log("logged"); await new Promise((r) => setTimeout(r, 600000)); return "x" } },
  quit: { description: "", args: {}, execute: async () => { await client.app.log({ body: { service: "s", level: "info", message: "m" } }); process.exit(3) } },
  agents: { description: "", args: {}, execute: async () => (await client.app.agents()).data.map((agent) => agent.name).join(",") },
} })
`

// serversHidden covers Windows, where Ctrl-C is no signal either.
const reason = opencode.reason ?? serversHidden

describe.each(["bun", "node"])("input.client from the CLI, %s engine", { timeout: 600_000 }, (engine) => {
  const engineFlags =
    engine === "bun" ? ["--engine", "bun", "--engine-binary", opencode.binary ?? ""] : ["--engine", "node"]

  test.skipIf(reason !== undefined)(
    `run answers from a real server, and --verbose shows its log (${reason ?? "real server"})`,
    async () => {
      const directory = tmpProject({ ".opencode/plugins/p.js": plugin })
      const result = await runCli(["run", "agents", "--json", "--verbose", ...engineFlags], { cwd: directory })
      expect(result.exitCode, result.stderr).toBe(0)
      expect(JSON.parse(result.stdout)).toMatchObject({ output: "build,compaction,explore,general,plan,summary,title" })
      expect(result.stderr).toMatch(/^\[opencode serve\] opencode server listening on http:\/\/127\.0\.0\.1:\d+$/m)
      expect(serversIn(directory)).toEqual([])
    },
  )

  test.skipIf(reason !== undefined)(
    `a tool calling process.exit after a client call leaves no server (${reason ?? "real server"})`,
    async () => {
      const directory = tmpProject({ ".opencode/plugins/p.js": plugin })
      const result = await runCli(["run", "quit", "--json", ...engineFlags], { cwd: directory })
      expect(result.exitCode, result.stderr).toBe(4)
      expect(serversIn(directory)).toEqual([])
    },
  )

  test.skipIf(reason !== undefined)(`Ctrl-C during a call leaves no server (${reason ?? "real server"})`, async () => {
    const directory = tmpProject({ ".opencode/plugins/p.js": plugin })
    const child = spawn(process.execPath, [path.join(packageRoot, "bin.js"), "run", "slow", ...engineFlags], {
      cwd: directory,
      env: { ...process.env, NO_COLOR: "1" },
    })
    await expect.poll(() => serversIn(directory).length, { timeout: 300_000, interval: 200 }).toBe(1)
    expect(child.exitCode).toBeNull()
    const exited = new Promise<string>((resolve) =>
      child.once("exit", (code, signal) => resolve(signal ?? `exit ${code}`)),
    )
    child.kill("SIGINT")
    // `run` lets Ctrl-C end it as it ends any program (a shell reports 130); its engine follows.
    expect(await exited).toBe("SIGINT")
    await expect.poll(() => serversIn(directory), { timeout: 30_000 }).toEqual([])
  })
})
