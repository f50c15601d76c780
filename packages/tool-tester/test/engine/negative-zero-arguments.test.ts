// The library hands a tool -0 in its arguments under both engines: the bun engine's channel is
// JSON text both ways, which JSON.stringify alone would write as 0.
import { describe, expect, onTestFinished, test } from "vitest"
import { fuzzTool } from "../../src/fuzz/index.ts"
import { closeProject, loadTools, runTool } from "../../src/index.ts"
import { negativeZeroTool } from "../support/negative-zero-tool.ts"
import { isolatedEnvironment, tmpProject } from "../support/tmp-project.ts"

describe("-0 in the library's calls", { timeout: 120_000 }, () => {
  test.each(["bun", "node"] as const)("runTool and fuzzTool give the tool -0 (%s engine)", async (engine) => {
    const { env, home } = isolatedEnvironment()
    const directory = tmpProject({ ".opencode/tools/negz.ts": negativeZeroTool })
    const project = await loadTools({ directory, env, home, engine })
    onTestFinished(() => closeProject(project))
    const result = await runTool(project, "negz", { n: -0 })
    expect(result).toMatchObject({ status: "error", output: "got -0" })
    expect(Object.is((result.args as { n: number }).n, -0)).toBe(true)
    const report = await fuzzTool(project, "negz", { runs: 300, seed: 7 })
    expect(report.failures).toHaveLength(1)
    expect(Object.is((report.failures[0]!.args as { n: number }).n, -0)).toBe(true)
  })
})
