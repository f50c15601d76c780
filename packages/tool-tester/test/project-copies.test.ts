// A project copied where only its description crosses (JSON, vitest's provide) has lost what runs
// its tools: under the node engine their functions (JSON drops them). Calls on it say so, as under
// the bun engine (test/engine/bun-engine.test.ts), instead of failing as the tool's own fault.
import { expect, test } from "vitest"
import { getToolSchemas, loadTools, runTool } from "../src/index.ts"
import { isolatedEnvironment, tmpProject, toolSource } from "./support/tmp-project.ts"

test("a JSON copy of a node-engine project is ENGINE_FAILED saying it lost the tools' functions; a spread copy runs", async () => {
  const { env, home } = isolatedEnvironment()
  const directory = tmpProject({ ".opencode/tools/quick.ts": toolSource("quick") })
  const project = await loadTools({ directory, env, home, engine: "node" })
  const copy = JSON.parse(JSON.stringify(project)) as typeof project
  const lost = {
    code: "ENGINE_FAILED",
    message: expect.stringMatching(
      /^this project is a copy of what loadTools\(\) resolved to .*, which lost its tools' functions/,
    ),
  }
  await expect(runTool(copy, "quick", {})).rejects.toMatchObject(lost)
  await expect(getToolSchemas(copy)).rejects.toMatchObject(lost)
  expect((await runTool({ ...project }, "quick", {})).status).toBe("completed")
})
