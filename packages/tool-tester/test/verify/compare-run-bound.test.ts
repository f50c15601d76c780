// verify's bound of one replay: when it passes while the project is still loading, compareRun
// returns its one "did not finish" check at once; the project that loads afterwards is closed then
// (its bun engine ends), not left running until the process exits, and the replay's sandbox goes
// once the replay has ended. The load is held until the bound has passed (openProject is wrapped),
// so the order is the same on any machine.
import { existsSync, readFileSync } from "node:fs"
import path from "node:path"
import { expect, test, vi } from "vitest"
import type { ToolProject } from "../../src/index.ts"
import { ENGINE_MARK } from "../../src/runtime/process-tree.ts"
import { compareRun } from "../../src/verify/compare-run.ts"
import type { ObservedSet } from "../../src/verify/observed-run.ts"
import { readProbeSets } from "../../src/verify/probe-set.ts"
import { opencode, packageRoot } from "../helpers.ts"
import { leftRunning } from "../support/left-running.ts"

const held = vi.hoisted(() => {
  let release!: () => void
  let called!: () => void
  return {
    released: new Promise<void>((resolve) => (release = resolve)),
    release: () => release(),
    called: new Promise<void>((resolve) => (called = resolve)),
    markCalled: () => called(),
    loads: [] as Array<Promise<ToolProject>>,
  }
})

vi.mock("../../src/load-tools.ts", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../../src/load-tools.ts")>()
  return {
    ...actual,
    openProject: (...args: Parameters<typeof actual.openProject>) => {
      held.markCalled()
      const load = held.released.then(() => actual.openProject(...args))
      held.loads.push(load)
      return load
    },
  }
})

test.skipIf(!opencode.binary)(
  `a replay cut short by its bound while the project loads closes that project once loaded ${opencode.reason ?? ""}`,
  { timeout: 180_000 },
  async () => {
    const probe = readProbeSets(["naming"])[0]!
    const recorded = JSON.parse(
      readFileSync(path.join(packageRoot, "test", "golden", "naming.json"), "utf8"),
    ) as ObservedSet
    // Only the bound's timer is faked: the test passes it once the load has begun.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] })
    let comparing: ReturnType<typeof compareRun>
    try {
      comparing = compareRun(probe, recorded.runs[0]!, {
        engine: "bun",
        engineBinary: opencode.binary!,
        timeoutMs: 60_000,
      })
      await held.called
      await vi.advanceTimersByTimeAsync(60_000)
    } finally {
      vi.useRealTimers()
    }
    const checks = await comparing
    expect(checks).toEqual([
      expect.objectContaining({
        subject: "the run",
        agree: false,
        toolTester: "tool-tester did not finish within 60000 ms",
      }),
    ])

    held.release()
    expect(held.loads).toHaveLength(1)
    const project = await held.loads[0]!
    expect(project.engine.name).toBe("bun")
    // The engine this process started for the project ends once the load is done.
    await vi.waitFor(() => expect(leftRunning([`${ENGINE_MARK}=${process.pid}-`])).toEqual([]), {
      timeout: 60_000,
      interval: 250,
    })
    const sandbox = path.dirname(project.directory)
    expect(path.basename(sandbox)).toMatch(/^tool-tester-verify-/)
    await vi.waitFor(() => expect(existsSync(sandbox)).toBe(false), { timeout: 60_000, interval: 250 })
  },
)
