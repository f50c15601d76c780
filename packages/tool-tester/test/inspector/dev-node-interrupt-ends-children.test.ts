// `dev --engine node` runs tools in the CLI's own process: what they start is the CLI's child, not
// an engine's. Ctrl-C (SIGINT) of `dev` ends it too, also a child started detached that left the
// process group: nothing a tool started outlives `dev` (docs/cli.md, "Signals"). Looked for as the
// shared cleanup looks (process-tree.ts: /proc on Linux, `ps` on macOS).
import { randomBytes } from "node:crypto"
import { existsSync, readFileSync, rmSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { expect, onTestFinished, test } from "vitest"
import { processesWithEnvironment } from "../../src/runtime/process-tree.ts"
import { isRunning } from "../support/processes.ts"
import { makeProject, startDev } from "./_inspector.ts"

const spawner = (pidFile: string, tag: string) => `import { tool } from "@opencode-ai/plugin"
import { spawn } from "node:child_process"
import { writeFileSync } from "node:fs"

export default tool({
  description: "starts two long-lived children and returns",
  args: {},
  async execute() {
    const forever = ["-e", "setInterval(() => {}, 1000)"]
    const env = { ...process.env, LEFT_BY: ${JSON.stringify(tag)} }
    const attached = spawn(process.execPath, forever, { env, stdio: "ignore" })
    const detached = spawn(process.execPath, forever, { env, stdio: "ignore", detached: true })
    detached.unref()
    writeFileSync(${JSON.stringify(pidFile)}, JSON.stringify([attached.pid, detached.pid]))
    return "started"
  },
})
`

test.skipIf(process.platform === "win32")(
  "Ctrl-C of dev --engine node ends the children its tools started, detached ones too (POSIX signals)",
  { timeout: 240_000 },
  async () => {
    const tag = `dev-children-${randomBytes(6).toString("hex")}`
    const pidFile = path.join(os.tmpdir(), `${tag}.json`)
    onTestFinished(() => rmSync(pidFile, { force: true }))
    const project = makeProject({ ".opencode/tools/spawner.ts": spawner(pidFile, tag) })
    onTestFinished(project.remove)
    const dev = await startDev(project.directory, ["--engine", "node"])
    onTestFinished(dev.stop)
    const answer = await fetch(`http://127.0.0.1:${dev.port}/${dev.token}/api/call`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: `http://127.0.0.1:${dev.port}` },
      body: JSON.stringify({ name: "spawner", form: "args", args: {} }),
      signal: AbortSignal.timeout(120_000),
    })
    expect(answer.status, await answer.clone().text()).toBe(200)
    expect(JSON.stringify(await answer.json())).toContain("started")
    await expect.poll(() => existsSync(pidFile), { timeout: 60_000, interval: 100 }).toBe(true)
    const pids = JSON.parse(readFileSync(pidFile, "utf8")) as number[]
    expect(pids.every(isRunning)).toBe(true)
    expect(processesWithEnvironment([`LEFT_BY=${tag}`], { exact: true }).sort()).toEqual([...pids].sort())

    const exited = new Promise((resolve) => dev.child.once("exit", resolve))
    dev.child.kill("SIGINT")
    await exited
    await expect.poll(() => pids.filter(isRunning), { timeout: 60_000, interval: 100 }).toEqual([])
    expect(processesWithEnvironment([`LEFT_BY=${tag}`], { exact: true })).toEqual([])
  },
)
