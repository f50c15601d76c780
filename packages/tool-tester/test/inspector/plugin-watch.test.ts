// A plugin loaded by path (`dev --plugin ./x.ts`) outside the config folders' plugin folders is
// watched too: its save reloads the project, as a tool file's does. Without a browser, so it runs
// where chromium is absent.
import { writeFileSync } from "node:fs"
import path from "node:path"
import { afterEach, expect, test } from "vitest"
import { InspectorSession } from "../../src/inspector/session.ts"
import { makeProject } from "./_inspector.ts"

const good = `import { tool } from "@opencode-ai/plugin"
export default tool({ description: "Says ok", args: {}, async execute() { return "ok" } })
`
const plugin = (word: string) => `import { tool } from "@opencode-ai/plugin"
export const Echo = async () => ({
  tool: {
    echo: tool({ description: "Echoes", args: {}, async execute() { return "${word}" } }),
  },
})
`

let cleanup: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const step of cleanup.reverse()) await step()
  cleanup = []
})

test("a save of a --plugin file outside the plugin folders reloads and re-runs the last call", {
  timeout: 120_000,
}, async () => {
  const project = makeProject({ ".opencode/tools/good.ts": good })
  cleanup.push(project.remove)
  // In the project folder itself, where only opencode.json and the like were watched.
  const pluginFile = path.join(project.directory, "echo-plugin.ts")
  writeFileSync(pluginFile, plugin("first"))
  const session = new InspectorSession({
    directory: project.directory,
    cwd: project.directory,
    global: false,
    engine: "node",
    plugins: [pluginFile],
  })
  cleanup.push(() => session.close())
  await session.start()
  const first = await session.call({ name: "echo", form: "args", args: {} })
  expect(first.result?.output).toBe("first")

  const rerun = new Promise<string | undefined>((resolve) => {
    session.subscribe((event) => {
      if (event.type === "call" && event.entry.trigger === "reload" && !event.entry.running)
        resolve(event.entry.result?.output)
    })
  })
  writeFileSync(pluginFile, plugin("second"))
  const timeout = new Promise<string>((resolve) => setTimeout(() => resolve("no reload within 20 s"), 20_000))
  expect(await Promise.race([rerun, timeout])).toBe("second")
})
