// dev started in a folder with no .opencode yet (a new project): the .opencode folder made next, and
// the tool written into its new tools/ folder at once, before any watcher watched that folder, are
// both read. Without a browser, so it runs where chromium is absent.
import { mkdirSync, writeFileSync } from "node:fs"
import path from "node:path"
import { expect, onTestFinished, test } from "vitest"
import { InspectorSession } from "../../src/inspector/session.ts"
import { makeProject } from "./_inspector.ts"

test("a .opencode/tools folder made while dev runs, with a tool written at once, is loaded", {
  timeout: 120_000,
}, async () => {
  const project = makeProject({})
  const session = new InspectorSession({
    directory: project.directory,
    cwd: project.directory,
    global: false,
    engine: "node",
  })
  onTestFinished(async () => {
    await session.close()
    project.remove()
  })
  await session.start()
  const ids = (view: { tools: Array<{ id: string }> } | undefined) => view?.tools.map((tool) => tool.id) ?? []
  expect(ids(session.view())).not.toContain("added")

  const offered = new Promise<string>((resolve) => {
    session.subscribe((event) => {
      if (event.type === "project" && ids(event.view).includes("added")) resolve("added is offered")
    })
  })
  const tools = path.join(project.directory, ".opencode", "tools")
  mkdirSync(tools, { recursive: true })
  writeFileSync(
    path.join(tools, "added.ts"),
    'export default { description: "Added", args: {}, async execute() { return "added" } }\n',
  )
  const timeout = new Promise<string>((resolve) => setTimeout(() => resolve("no load within 30 s"), 30_000))
  expect(await Promise.race([offered, timeout])).toBe("added is offered")
})
