// The library's timeout options take what the CLI's --timeout takes (src/_timeout-bound.ts): a
// timer of 2^31 ms or more fires at once under Node and Bun, so such a bound would end the run at
// once. runTool and callTool are checked in run-tool.test.ts.
import { describe, expect, test } from "vitest"
import { MAX_TIMEOUT_MS } from "../src/_timeout-bound.ts"
import { runE2E } from "../src/e2e/index.ts"
import { fuzzTool } from "../src/fuzz/index.ts"
import type { ToolProject } from "../src/index.ts"
import { evalSuite } from "../src/vitest/eval-suite.ts"

const refused = (option: string, value: number) => ({
  code: "USAGE",
  message: `${option} must be a number of milliseconds above 0 and at most ${MAX_TIMEOUT_MS} (about 23 days: Node and Bun fire a longer timer at once), not ${value}`,
})

describe("timeout options of the other entries are refused up front when a timer cannot wait for them", () => {
  test("fuzzTool's timeoutMs", async () => {
    // Refused before the project is read: nothing else is needed.
    await expect(fuzzTool({} as ToolProject, "any", { timeoutMs: 2 ** 31 })).rejects.toMatchObject(
      refused("timeoutMs", 2 ** 31),
    )
  })

  test("runE2E's timeoutMs and callTimeoutMs", async () => {
    const script = { turns: [] }
    await expect(runE2E({ directory: ".", script, timeoutMs: 0 })).rejects.toMatchObject(refused("timeoutMs", 0))
    await expect(runE2E({ directory: ".", script, callTimeoutMs: MAX_TIMEOUT_MS + 1 })).rejects.toMatchObject(
      refused("callTimeoutMs", MAX_TIMEOUT_MS + 1),
    )
  })

  test("evalSuite's timeoutMs", async () => {
    await expect(evalSuite({ directory: ".", timeoutMs: -1 })).rejects.toMatchObject(refused("timeoutMs", -1))
  })
})
