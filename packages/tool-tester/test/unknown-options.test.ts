// The library's option objects, read as a JavaScript caller (or a cast) may write them: a key a
// function does not take is refused, naming the closest one, before anything is loaded or run.
// Dropped without a word, `dir` loaded the working folder, `provider` listed for the mock model,
// `numRuns` made 200 calls, and `timeout` ran with no bound.
import { expect, test } from "vitest"
import { fuzzTool } from "../src/fuzz/index.ts"
import { runE2E } from "../src/e2e/index.ts"
import { getToolSchemas, listTools, loadTools } from "../src/index.ts"
import { isolatedEnvironment, tmpProject, toolSource } from "./support/tmp-project.ts"

test("loadTools, listTools, getToolSchemas and fuzzTool refuse an option they do not take, as USAGE naming the closest", async () => {
  const directory = tmpProject({ ".opencode/tools/quick.ts": toolSource("quick") })
  const { env, home } = isolatedEnvironment()
  await expect(loadTools({ dir: directory, env, home, engine: "node" } as never)).rejects.toMatchObject({
    code: "USAGE",
    message: expect.stringMatching(
      /^loadTools\(\) has no option "dir"; did you mean "directory"\?: it takes directory, /,
    ),
    data: { option: "dir" },
  })
  const project = await loadTools({ directory, env, home, engine: "node" })
  expect(() => listTools(project, { provider: "openai" } as never)).toThrow(
    expect.objectContaining({ code: "USAGE", data: { option: "provider" } }),
  )
  await expect(getToolSchemas(project, { modle: {} } as never)).rejects.toMatchObject({
    code: "USAGE",
    message: 'getToolSchemas has no option "modle"; did you mean "model"?: it takes model, permissions',
  })
  await expect(getToolSchemas(project, "openai" as never)).rejects.toMatchObject({ code: "USAGE" })
  await expect(fuzzTool(project, "quick", { numRuns: 5 } as never)).rejects.toMatchObject({
    code: "USAGE",
    data: { option: "numRuns" },
  })
  // What they take still runs.
  expect(listTools(project, { permissions: {} }).map((tool) => tool.id)).toContain("quick")
  expect((await fuzzTool(project, "quick", { runs: 3, seed: 1 })).calls).toBe(3)
})

test("runE2E refuses an option it does not take before opencode starts", async () => {
  await expect(runE2E({ directory: ".", script: { turns: [] }, timeout: 5 } as never)).rejects.toMatchObject({
    code: "USAGE",
    message: expect.stringMatching(/^runE2E has no option "timeout"; did you mean "timeoutMs"\?/),
  })
  await expect(runE2E(undefined as never)).rejects.toMatchObject({ code: "USAGE", data: { option: "options" } })
})
