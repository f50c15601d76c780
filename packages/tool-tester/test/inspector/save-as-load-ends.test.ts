// A save made just as a reload ends, while the watcher is set again on what that load reads, is read
// by one more load. The old watches used to stop before the new ones began, and a save between the
// two (or one still settling in the old watches) was lost: a page kept the previous save's re-run.
// Without a browser, so it runs where chromium is absent.
import { expect, test } from "vitest"
import type { ProjectView } from "../../src/inspector/project-view.ts"
import { startedSession, writeTool } from "./_inspector.ts"

const echo = (description: string) => `import { tool } from "@opencode-ai/plugin"
export default tool({ description: ${JSON.stringify(description)}, args: {}, async execute() { return "ok" } })
`

test("a save made as a reload shows its project is read by one more load", { timeout: 120_000 }, async () => {
  const { session, directory } = await startedSession({ ".opencode/tools/echo.ts": echo("one") }, { watch: true })
  const described = (view: ProjectView) => view.tools.find((tool) => tool.id === "echo")?.description
  let saved = false
  const loaded = new Promise<string>((resolve) => {
    session.subscribe((event) => {
      if (event.type !== "project") return
      // The first save's load is being shown: the next save lands now, before the reload sets the
      // watcher on what it read (the listener runs inside the reload, with no event read between).
      if (described(event.view) === "two" && !saved) {
        saved = true
        writeTool(directory, ".opencode/tools/echo.ts", echo("three"))
      }
      if (described(event.view) === "three") resolve("the last save is loaded")
    })
  })
  writeTool(directory, ".opencode/tools/echo.ts", echo("two"))
  const timeout = new Promise<string>((resolve) => setTimeout(() => resolve("no load of it within 30 s"), 30_000))
  expect(await Promise.race([loaded, timeout])).toBe("the last save is loaded")
})
