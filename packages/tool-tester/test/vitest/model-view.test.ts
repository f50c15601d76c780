import os from "node:os"
import path from "node:path"
import { describe, expect, test, vi } from "vitest"
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
  const view = (output: string) =>
    modelView({
      id: "read",
      name: "read",
      status: "completed",
      output,
      rerouted: false,
      outputPath: null,
    } as unknown as Parameters<typeof modelView>[0])

  test("a path is replaced by its placeholder only whole, or followed by more of it", () => {
    // A working folder below neither the temp folder nor home, wherever this checkout is: the paths
    // that only start like it must come out as they went in.
    const cwd = path.join(path.parse(process.cwd()).root, "srv", "app")
    expect([os.tmpdir(), os.homedir()].some((folder) => cwd.startsWith(folder))).toBe(false)
    const spy = vi.spyOn(process, "cwd").mockReturnValue(cwd)
    try {
      expect(view(`read ${cwd}/notes.txt and ${cwd}. Not ${cwd}2/x, ${cwd}-old or ${cwd}.bak.`)).toBe(
        `tool: read\nstatus: completed\noutput:\nread <cwd>/notes.txt and <cwd>. Not ${cwd}2/x, ${cwd}-old or ${cwd}.bak.`,
      )
    } finally {
      spy.mockRestore()
    }
  })

  test("a working folder inside the temp folder is <cwd>, and the temp folder's other paths <tmp>", () => {
    const cwd = path.join(os.tmpdir(), "checkout", "app")
    const spy = vi.spyOn(process, "cwd").mockReturnValue(cwd)
    try {
      expect(view(`read ${cwd}/notes.txt. Not ${cwd}2/x.`)).toBe(
        `tool: read\nstatus: completed\noutput:\nread <cwd>/notes.txt. Not <tmp>${path.sep}checkout${path.sep}app2/x.`,
      )
    } finally {
      spy.mockRestore()
    }
  })
})

test("modelView refuses what is not a call's result with USAGE, not a TypeError", () => {
  const refused = expect.objectContaining({ code: "USAGE", data: { option: "result" } })
  // An un-awaited runTool(), or the wrong object.
  expect(() => modelView({} as never)).toThrow(refused)
  expect(() => modelView(Promise.resolve() as never)).toThrow(refused)
})
