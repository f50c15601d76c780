// toLoadInOpencode()'s options for doctor's one call of each tool: `timeoutMs` bounds each call
// instead of doctor's 5 s, and `signal` (the test context's) stops the calls. Under the node engine,
// whose tools run in this process, so a tool can abort the test's own controller; and the signal
// ends doctor's own work in the bun engine's process, and runTool's its reload of the project there.
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import path from "node:path"
import { expect, onTestFinished, test, vi } from "vitest"
import "../../src/vitest/index.ts"
import { closeProject, runTool } from "../../src/index.ts"
import { opencode } from "../helpers.ts"
import { isRunning, killProcess } from "../support/processes.ts"
import { loadedUnder, toolSource } from "../support/tmp-project.ts"

type Shared = { stopDoctor?: () => void; laterCalled?: boolean }
const shared = globalThis as Shared

test("timeoutMs bounds each call: a tool that would return a bad result after 1.5 s is left at 100 ms, no finding", async () => {
  const { project } = await loadedUnder("node", {
    ".opencode/tools/slow_number.ts": toolSource("slow", "await new Promise((r) => setTimeout(r, 1500)); return 42"),
  })
  onTestFinished(() => closeProject(project))
  await expect(project).toLoadInOpencode({ timeoutMs: 100 })
})

test("an aborted signal stops the calls: the running one gets it, no later one starts, the matcher rejects with its reason", async () => {
  const controller = new AbortController()
  shared.stopDoctor = () => controller.abort(new Error("the test was stopped"))
  onTestFinished(() => {
    delete shared.stopDoctor
    delete shared.laterCalled
  })
  const { project } = await loadedUnder("node", {
    // Stops the test, then waits for its own abort (fired at once, by the same abort()): only the
    // signal reaching the call ends it before the 60 s bound.
    ".opencode/tools/a_stops.ts": toolSource(
      "stops",
      "globalThis.stopDoctor(); await new Promise((r) => (context.abort.aborted ? r() : context.abort.addEventListener('abort', r))); return 'stopped'",
    ),
    ".opencode/tools/b_later.ts": toolSource("later", "globalThis.laterCalled = true; return 'called'"),
  })
  onTestFinished(() => closeProject(project))
  await expect(expect(project).toLoadInOpencode({ timeoutMs: 60_000, signal: controller.signal })).rejects.toThrow(
    "the test was stopped",
  )
  expect(shared.laterCalled).toBeUndefined()
})

test("an aborted signal rejects with its reason even when doctor's errors leave no call to make", async () => {
  const { project } = await loadedUnder("node", {
    // Fails to import: doctor's error, so no tool is called and no call could see the signal.
    ".opencode/tools/broken.ts": "export default {",
  })
  onTestFinished(() => closeProject(project))
  const signal = AbortSignal.abort(new Error("the test timed out"))
  await expect(expect(project).toLoadInOpencode({ signal })).rejects.toThrow("the test timed out")
})

// Loads at once, but once the marker file is there (a new engine loading the project again, the
// first having ended) writes its engine's process id and holds the load for 10 minutes.
const slowLoad = `import { existsSync, writeFileSync } from "node:fs"
import { tool } from "@opencode-ai/plugin"
if (existsSync(new URL("../../slow-load", import.meta.url))) {
  writeFileSync(new URL("../../engine-pid", import.meta.url), String(process.pid))
  await new Promise((resolve) => setTimeout(resolve, 600_000))
}
export default tool({
  description: "Ends its engine",
  args: {},
  async execute() { process.exit(0) },
})
`

test.skipIf(!opencode.binary)(
  `an aborted signal ends doctor's work in the bun engine, the project's load there too, and rejects with its reason; so does runTool's, during its reload${opencode.reason ? ` (${opencode.reason})` : ""}`,
  { timeout: 60_000 },
  async () => {
    const { project, directory } = await loadedUnder("bun", { ".opencode/tools/exits.ts": slowLoad })
    onTestFinished(() => closeProject(project))
    // The call ends the engine: doctor's engine loads the project again, and the load holds.
    expect(await runTool(project, "exits", {})).toMatchObject({ error: { code: "TOOL_EXITED" } })
    writeFileSync(path.join(directory, "slow-load"), "")
    const controller = new AbortController()
    const reason = new Error("the test timed out")
    const pidFile = path.join(directory, "engine-pid")
    const matching = expect(project).toLoadInOpencode({ signal: controller.signal })
    await vi.waitFor(() => expect(existsSync(pidFile)).toBe(true), { timeout: 30_000, interval: 50 })
    const engine = Number(readFileSync(pidFile, "utf8"))
    onTestFinished(() => killProcess(engine))
    controller.abort(reason)
    await expect(matching).rejects.toBe(reason)
    await expect.poll(() => isRunning(engine), { timeout: 10_000 }).toBe(false)

    // runTool loads the project again before its call (the engine ended), in a new engine, whose
    // load holds as well: its own signal ends that load, and the call rejects with the reason.
    rmSync(pidFile)
    const callController = new AbortController()
    const calling = runTool(project, "exits", {}, { signal: callController.signal })
    calling.catch(() => undefined)
    await vi.waitFor(() => expect(existsSync(pidFile)).toBe(true), { timeout: 30_000, interval: 50 })
    const reloading = Number(readFileSync(pidFile, "utf8"))
    onTestFinished(() => killProcess(reloading))
    const callReason = new Error("the call was stopped")
    callController.abort(callReason)
    await expect(calling).rejects.toBe(callReason)
    await expect.poll(() => isRunning(reloading), { timeout: 10_000 }).toBe(false)
  },
)
