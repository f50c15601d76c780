// toLoadInOpencode()'s options for doctor's one call of each tool: `timeoutMs` bounds each call
// instead of doctor's 5 s, and `signal` (the test context's) stops the calls. Under the node engine,
// whose tools run in this process, so a tool can abort the test's own controller.
import { expect, onTestFinished, test } from "vitest"
import "../../src/vitest/index.ts"
import { closeProject } from "../../src/index.ts"
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
