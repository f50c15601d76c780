// The library's option objects, read as a JavaScript caller (or a cast) may write them: a key a
// function does not take is refused, naming the closest one, before anything is loaded or run.
// Dropped without a word, `dir` loaded the working folder, `provider` listed for the mock model,
// `numRuns` made 200 calls, and `timeout` ran with no bound.
import { expect, test } from "vitest"
import { fuzzTool } from "../src/fuzz/index.ts"
import { runE2E } from "../src/e2e/index.ts"
import { getToolSchemas, listTools, loadTools, providerSchema, truncateOutput, validateArgs } from "../src/index.ts"
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

test("runE2E refuses an option of the wrong type, naming it, before opencode is looked for", async () => {
  const script = { turns: [] }
  const refused = (option: string, message: RegExp) => ({
    code: "USAGE",
    message: expect.stringMatching(message),
    data: { option },
  })
  // Node's TypeError for the path, and `map is not a function`, named no option.
  await expect(runE2E({ script } as never)).rejects.toMatchObject(
    refused("directory", /^runE2E's directory must be the project folder's path, a string, not undefined$/),
  )
  await expect(runE2E({ directory: new URL("file:///tmp/"), script } as never)).rejects.toMatchObject(
    refused("directory", /fileURLToPath/),
  )
  await expect(runE2E({ directory: ".", script, plugins: "./my-plugin" } as never)).rejects.toMatchObject(
    refused(
      "plugins",
      /^runE2E's plugins must be an array of plugin specs, such as \["\.\/my-plugin"\], not "\.\/my-plugin"$/,
    ),
  )
  // These reached opencode, which refused its config (OPENCODE_FAILED), or listened on a pipe named abc.
  await expect(runE2E({ directory: ".", script, config: [] } as never)).rejects.toMatchObject(
    refused("config", /^runE2E's config must be an object as opencode\.json holds/),
  )
  await expect(runE2E({ directory: ".", script, model: 5 } as never)).rejects.toMatchObject(refused("model", /not 5$/))
  for (const port of ["abc", -1, 70000, 1.5])
    await expect(runE2E({ directory: ".", script, port } as never)).rejects.toMatchObject(
      refused("port", /^runE2E's port must be a port number from 0 to 65535/),
    )
  await expect(runE2E({ directory: ".", script, signal: {} } as never)).rejects.toMatchObject(
    refused("signal", /AbortSignal/),
  )
  await expect(runE2E({ directory: ".", script, onProgress: "x" } as never)).rejects.toMatchObject(
    refused("onProgress", /function/),
  )
  await expect(runE2E({ directory: ".", script, copyProject: "no" } as never)).rejects.toMatchObject(
    refused("copyProject", /true or false/),
  )
})

test("truncateOutput, providerSchema and validateArgs refuse what they cannot read as USAGE naming it, not a TypeError", async () => {
  const outputDir = tmpProject({})
  const refused = (option: string) => expect.objectContaining({ code: "USAGE", data: { option } })
  await expect(truncateOutput(5 as never, { hasTaskTool: false, outputDir })).rejects.toEqual(refused("text"))
  await expect(truncateOutput("a", undefined as never)).rejects.toEqual(refused("options"))
  await expect(truncateOutput("a", { hasTaskTool: false, outputDir, maxLine: 1 } as never)).rejects.toEqual(
    refused("maxLine"),
  )
  await expect(truncateOutput("a", { hasTaskTool: false } as never)).rejects.toEqual(refused("outputDir"))
  await expect(truncateOutput("a", { outputDir } as never)).rejects.toEqual(refused("hasTaskTool"))
  // A limit of 0 cut every output (and wrote a file) where opencode refuses such a tool_output.
  await expect(truncateOutput("a\nb", { hasTaskTool: false, outputDir, maxLines: 0 })).rejects.toEqual(
    refused("maxLines"),
  )
  expect(() => providerSchema({ type: "object" }, "openai" as never)).toThrow(refused("model"))
  expect(() => providerSchema({ type: "object" }, { npm: "@ai-sdk/openai", providerID: "openai" } as never)).toThrow(
    refused("modelID"),
  )
  expect(() => validateArgs("quick", null as never, {})).toThrow(refused("definition"))
  // What they take still works.
  expect(await truncateOutput("a", { hasTaskTool: false, outputDir })).toEqual({ content: "a", truncated: false })
  const model = { npm: "@ai-sdk/openai-compatible", providerID: "mock", modelID: "mock-model" }
  expect(providerSchema({ type: "object" }, model)).toEqual({ type: "object" })
  expect(validateArgs("quick", { description: "", args: {}, execute: () => "" }, {})).toEqual({
    success: true,
    value: {},
  })
})
