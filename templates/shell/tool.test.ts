import { fileURLToPath } from "node:url"
import { loadTools, runTool } from "@opencode-ai/tool-tester"
import "@opencode-ai/tool-tester/vitest"
import { expect, test } from "vitest"

const folder = (relativePath: string) => fileURLToPath(new URL(relativePath, import.meta.url))
const project = await loadTools(
  // @if project
  // The project folder (the one holding .opencode/), whose .opencode/tools/ is scanned as opencode does.
  { directory: folder("../.."), global: false },
  // @end
  // @if global
  // The global config folder (this file's parent), scanned as opencode does, whatever XDG_CONFIG_HOME says.
  { directory: folder(".."), global: true, env: { XDG_CONFIG_HOME: folder("../..") } },
  // @end
  // @if plugin
  // The package folder, loaded as opencode loads a path in the "plugin" list of opencode.json
  // (through its package.json exports["./server"]); the .opencode folders above it are left out
  // (OPENCODE_DISABLE_PROJECT_CONFIG), so that only the plugin's tools are tested.
  {
    directory: folder(".."),
    global: false,
    plugins: [folder("..")],
    env: { OPENCODE_DISABLE_PROJECT_CONFIG: "1" },
  },
  // @end
)

// doctor starts opencode's engine and calls each tool once: seconds on a cold or busy machine, past
// vitest's 5 s default, so this test gets a bound of its own. `signal` (the test context's) is
// aborted at that bound: a tool call that hangs ends there, not in the tests after it.
test("opencode loads and offers the tools of __TOOL_NAME__", { timeout: 60_000 }, async ({ signal }) => {
  // Fails whenever `tool-tester doctor` finds an error: a tool file that fails to import, or an
  // argument opencode cannot send (such as z.date()), takes every custom tool down in opencode.
  await expect(project).toLoadInOpencode({ signal })
  expect(project.tools.map((found) => found.id)).toEqual(expect.arrayContaining(["__TOOL_IDS__"]))
})

// @tool-begin
test("__TOOL_ID__ runs the program without a shell, after asking permission", async ({ signal }) => {
  const argument = "a b; echo injected $(whoami)"
  const program = ["-e", "process.stdout.write(process.argv[1])", argument]
  const result = await runTool(project, "__TOOL_ID__", { command: process.execPath, args: program }, { signal })
  expect(result.status).toBe("completed")
  expect(result.output).toBe(argument)
  const commandLine = [process.execPath, ...program].join(" ")
  expect(result.asks).toEqual([
    expect.objectContaining({ permission: "__TOOL_ID__", patterns: [commandLine], decision: "allow" }),
  ])
})

test("__TOOL_ID__ tells the model when the program fails", async ({ signal }) => {
  const result = await runTool(
    project,
    "__TOOL_ID__",
    { command: process.execPath, args: ["-e", "process.exit(3)"] },
    { signal },
  )
  expect(result.status).toBe("completed")
  expect(result.output).toContain("Exit code 3")
  expect(result.metadata).toMatchObject({ exitCode: 3 })
})

test("__TOOL_ID__ tells the model what to fix when its arguments do not fit", async ({ signal }) => {
  // Models send what they send: opencode passes it on unchecked, so the tool checks it itself.
  const result = await runTool(project, "__TOOL_ID__", { command: process.execPath, args: "--version" }, { signal })
  expect(result.status).toBe("error")
  expect(result.output).toContain("args must be an array of strings")
  const empty = await runTool(project, "__TOOL_ID__", { command: "" }, { signal })
  expect(empty.output).toContain("command is empty")
})
// @tool-end
