import { describe, expect, test } from "vitest"
import { callTool, closeProject, getToolSchemas, listTools, loadTools, runTool } from "../src/index.ts"
import { tmpProject, toolSource } from "./support/tmp-project.ts"

// The slip of a test that forgot to await loadTools(), or passed the wrong variable.
const notProjects: unknown[] = [undefined, null, "/project", {}, Promise.resolve({ tools: [] })]

describe("a value that is not a loaded project", () => {
  test.each(notProjects.map((value) => [value]))(
    "is refused as USAGE by each function that takes one: %s",
    async (value) => {
      const usage = {
        code: "USAGE",
        message: expect.stringMatching(
          /^expected the project loadTools\(\) resolved to \(await loadTools\(\) first\), not /,
        ),
      }
      const project = value as never
      expect(() => listTools(project)).toThrow(expect.objectContaining(usage))
      await expect(runTool(project, "echo", {})).rejects.toMatchObject(usage)
      await expect(callTool(project, { name: "echo", rawArguments: "{}" })).rejects.toMatchObject(usage)
      await expect(getToolSchemas(project)).rejects.toMatchObject(usage)
      expect(() => closeProject(project)).toThrow(expect.objectContaining(usage))
    },
  )

  test("a loaded project is taken as it is", async () => {
    const project = await loadTools({
      directory: tmpProject({ ".opencode/tools/echo.ts": toolSource("echo") }),
      global: false,
      engine: "node",
    })
    expect(listTools(project).some((tool) => tool.id === "echo")).toBe(true)
    closeProject(project)
  })
})
