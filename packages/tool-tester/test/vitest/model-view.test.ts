import { describe, expect, test } from "vitest"
import { callTool, closeProject, loadTools } from "../../src/index.ts"
import { modelView } from "../../src/vitest/model-view.ts"
import { isolatedEnvironment, tmpProject, toolSource, writeFiles } from "../support/tmp-project.ts"

describe("modelView of a call rerouted to invalid", { timeout: 60_000 }, () => {
  test("holds the list of offered tools as a placeholder, so adding a tool leaves the snapshot as it was", async () => {
    const { env, home } = isolatedEnvironment()
    const directory = tmpProject({ ".opencode/tools/weather.ts": toolSource("Weather") })
    const view = async () => {
      const project = await loadTools({ directory, env, home, global: false })
      try {
        const result = await callTool(project, { name: "forecast", rawArguments: "{}" })
        expect(result.rerouted).toBe(true)
        return modelView(result)
      } finally {
        closeProject(project)
      }
    }
    const before = await view()
    expect(before).toContain("Model tried to call unavailable tool 'forecast'. Available tools: <offered tools>.")
    expect(before).not.toContain("weather")
    writeFiles(directory, { ".opencode/tools/news.ts": toolSource("News") })
    expect(await view()).toBe(before)
  })
})

describe("modelView's paths", () => {
  test("a path is replaced by its placeholder only whole, or followed by more of it", () => {
    const cwd = process.cwd()
    const output = `read ${cwd}/notes.txt and ${cwd}. Not ${cwd}2/x, ${cwd}-old or ${cwd}.bak.`
    const result = { id: "read", name: "read", status: "completed", output, rerouted: false, outputPath: null }
    expect(modelView(result as unknown as Parameters<typeof modelView>[0])).toBe(
      `tool: read\nstatus: completed\noutput:\nread <cwd>/notes.txt and <cwd>. Not ${cwd}2/x, ${cwd}-old or ${cwd}.bak.`,
    )
  })
})
