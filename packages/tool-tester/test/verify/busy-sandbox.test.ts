// A sandbox folder that cannot be removed at once (on Windows, an engine just ended still holds it:
// EBUSY, seen in the Windows smoke's verify row) does not cost the run its checks: the removal is
// retried, and a folder that still cannot go is left to the exit guard. In-process: `rm` of the
// sandbox is made to fail; tool-tester's side is the node engine, opencode's the recorded golden.
import { readFileSync } from "node:fs"
import path from "node:path"
import { expect, test, vi } from "vitest"
import { compareRun } from "../../src/verify/compare-run.ts"
import type { ObservedSet } from "../../src/verify/observed-run.ts"
import { readProbeSets } from "../../src/verify/probe-set.ts"
import { packageRoot } from "../helpers.ts"

const busy = vi.hoisted(() => ({ tries: 0 }))

vi.mock("node:fs/promises", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:fs/promises")>()
  return {
    ...actual,
    rm: (target: string, options?: Parameters<typeof actual.rm>[1]) => {
      if (!path.basename(String(target)).startsWith("tool-tester-verify-")) return actual.rm(target, options)
      busy.tries++
      const error = Object.assign(new Error(`EBUSY: resource busy or locked, rmdir '${target}'`), { code: "EBUSY" })
      return Promise.reject(error)
    },
  }
})

test("a sandbox that stays busy: the run's checks stand, the folder is left to the exit guard", {
  timeout: 120_000,
}, async () => {
  const [probe] = readProbeSets(["naming"])
  const golden = path.join(packageRoot, "test", "golden", "naming.json")
  const observed = (JSON.parse(readFileSync(golden, "utf8")) as ObservedSet).runs[0]!
  const checks = await compareRun(probe!, observed, { engine: "node" })
  expect(busy.tries).toBeGreaterThan(0)
  expect(checks.length).toBeGreaterThan(3)
  expect(checks.filter((entry) => !entry.agree)).toEqual([])
})
