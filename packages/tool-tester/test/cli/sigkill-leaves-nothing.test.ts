// A CLI killed with SIGKILL runs no code, yet leaves nothing of an `e2e` or `eval` run: its reaper
// (src/runtime/reaper.ts) ends opencode and what its tools started, and removes the throw-away
// folders, the eval's copy of the user's auth.json among them. Found the way the shared cleanup
// finds processes (process-tree.ts: /proc on Linux, `ps` on macOS).
import { spawn } from "node:child_process"
import { existsSync, readdirSync } from "node:fs"
import { createServer, type Socket } from "node:net"
import path from "node:path"
import { describe, expect, onTestFinished, test } from "vitest"
import { processesWithEnvironment } from "../../src/runtime/process-tree.ts"
import { opencode, packageRoot, useTmpDir } from "../helpers.ts"
import { evalProcesses, makeEvalHome } from "../support/eval-home.ts"
import { tmpProject } from "../support/tmp-project.ts"

const reason = opencode.reason ?? (process.platform === "win32" ? "sends SIGKILL" : undefined)

/** Files under `folder`, recursively, relative to it. */
function filesUnder(folder: string): string[] {
  if (!existsSync(folder)) return []
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
}

describe("SIGKILL of the CLI", { timeout: 600_000 }, () => {
  test.skipIf(reason !== undefined)(
    `during e2e leaves no opencode, no child of the tool and no folder (${reason ?? "here"})`,
    async () => {
      const directory = tmpProject({
        ".opencode/tools/hang.ts": `import { spawn } from "node:child_process"
import { writeFileSync } from "node:fs"
export default { description: "Starts a child in a session of its own, then never returns", args: {}, async execute() {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { detached: true, stdio: "ignore", env: { ...process.env, BUN_BE_BUN: "1" } })
  child.unref()
  writeFileSync(process.env.READY_FILE, String(child.pid))
  await new Promise(() => {})
} }
`,
        "e2e.json": JSON.stringify({ turns: [{ calls: [{ tool: "hang" }] }] }),
      })
      const tmp = useTmpDir("tool-tester-sigkill-tmp-")
      const ready = path.join(useTmpDir(), "ready")
      const cli = spawn(
        process.execPath,
        [path.join(packageRoot, "bin.js"), "e2e", "--script", "e2e.json", "--opencode", opencode.binary!],
        { cwd: directory, env: { ...process.env, NO_COLOR: "1", TMPDIR: tmp, READY_FILE: ready }, stdio: "ignore" },
      )
      const exited = new Promise((resolve) => cli.once("exit", resolve))
      await expect.poll(() => existsSync(ready), { timeout: 300_000, interval: 100 }).toBe(true)
      // opencode run and the tool's child, both with the sandbox's TMPDIR (inside this test's).
      expect(processesWithEnvironment([`TMPDIR=${tmp}/`]).length).toBeGreaterThanOrEqual(2)
      cli.kill("SIGKILL")
      await exited
      await expect
        .poll(() => processesWithEnvironment([`TMPDIR=${tmp}/`]), { timeout: 60_000, interval: 200 })
        .toEqual([])
      await expect.poll(() => readdirSync(tmp), { timeout: 60_000, interval: 200 }).toEqual([])
    },
  )

  test.skipIf(reason !== undefined)(
    `during eval leaves no opencode serve and no copy of auth.json (${reason ?? "here"})`,
    async () => {
      // A provider that takes the request and never answers: the trial waits, opencode serve runs.
      const sockets = new Set<Socket>()
      const silent = createServer((socket) => void sockets.add(socket))
      await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve))
      onTestFinished(() => {
        for (const socket of sockets) socket.destroy()
        silent.close()
      })
      const port = (silent.address() as { port: number }).port
      const home = makeEvalHome({
        providers: { silent: { baseURL: `http://127.0.0.1:${port}/v1`, models: ["quiet"] } },
        model: "silent/quiet",
        auth: { silent: { type: "api", key: "the-users-secret-key" } },
      })
      onTestFinished(() => home.remove())
      const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1" }
      home.use((name, value) => {
        env[name] = value
      })
      const directory = tmpProject({
        ".opencode/tools/weather.ts": `export default { description: "Get the weather for a city", args: {}, async execute() { return "sunny" } }\n`,
        ".opencode/evals/weather.json": JSON.stringify({
          cases: [{ name: "weather", prompt: "weather in Paris?", expect: { calls: [{ tool: "weather" }] } }],
        }),
      })
      const cli = spawn(
        process.execPath,
        [path.join(packageRoot, "bin.js"), "eval", "--no-history", "--opencode", opencode.binary!],
        { cwd: directory, env, stdio: "ignore" },
      )
      const exited = new Promise((resolve) => cli.once("exit", resolve))
      await expect.poll(() => sockets.size, { timeout: 300_000, interval: 100 }).toBeGreaterThan(0)
      expect(evalProcesses(home)).not.toEqual([])
      expect(filesUnder(home.tmp).filter((file) => file.endsWith("auth.json"))).not.toEqual([])
      cli.kill("SIGKILL")
      await exited
      await expect.poll(() => evalProcesses(home), { timeout: 60_000, interval: 200 }).toEqual([])
      // The eval's folders are gone with the key's copy (the data folder of tool-tester's own stays).
      await expect
        .poll(() => readdirSync(home.tmp).filter((name) => name.startsWith("tool-tester-eval-")), { timeout: 60_000 })
        .toEqual([])
      expect(filesUnder(home.tmp).filter((file) => file.endsWith("auth.json"))).toEqual([])
    },
  )
})
