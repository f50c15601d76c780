// list and doctor run in a folder that gives no custom or plugin tool (most often: not the
// project's folder). Before, list printed the built-ins and doctor "No problems found (0 tool files,
// 0 tools).", and neither said that nothing of the user's was found, nor where opencode looks.
import { mkdirSync, writeFileSync } from "node:fs"
import path from "node:path"
import { expect, test } from "vitest"
import { noToolsMessage } from "../../src/cli/report.ts"
import { fixture, runCli, useTmpDir } from "../helpers.ts"

const HINT = "No custom or plugin tool found for "

for (const command of ["list", "doctor"])
  test(`${command} in a folder with no tool says so on stderr, naming the folder and where opencode looks`, {
    timeout: 120_000,
  }, async () => {
    const empty = useTmpDir()
    const result = await runCli([command, "--dir", empty, "--no-global"])
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stderr).toContain(
      `${HINT}${empty}: opencode reads tool files from .opencode/tool/ and .opencode/tools/`,
    )
    expect(result.stderr).toContain("Run tool-tester from your project's folder, or pass --dir with it.")
    // --no-global left the global config folder out: the hint does not send the user to look there.
    expect(result.stderr).toContain("the tools/ folder of its global config, left out here (--no-global).")
    // Not where there are tools, and never in --json.
    const tools = await runCli([command, "--dir", fixture("cli-basic"), "--no-global"])
    expect(tools.stderr).not.toContain(HINT)
    const json = await runCli([command, "--dir", empty, "--no-global", "--json"])
    expect(json.stderr).not.toContain(HINT)
  })

// In a plugin package's folder, nothing of the package loads without --plugin (opencode reads a
// package only from opencode.json's "plugin" list). Before, list said to run from the project's
// folder, where the user already was, and `run weather` only listed the built-ins.
test("in a plugin package's folder, list and run say to pass --plugin, from the folder typed in", {
  timeout: 120_000,
}, async () => {
  const folder = useTmpDir()
  writeFileSync(
    path.join(folder, "package.json"),
    JSON.stringify({
      name: "opencode-weather",
      main: "./dist/index.js",
      dependencies: { "@opencode-ai/plugin": "^1.18.33" },
    }),
  )
  const hint = `${folder} holds a plugin package, which opencode loads only from the "plugin" list of opencode.json: to load it, pass --plugin`
  const list = await runCli(["list", "--no-global"], { cwd: folder })
  expect(list.exitCode, list.stderr).toBe(0)
  expect(list.stderr).toContain(`${hint} . (after building it).`)
  expect(list.stderr).not.toContain("Run tool-tester from your project's folder")
  const run = await runCli(["run", "weather", "--dir", folder, "--no-global", "input=hello"])
  expect(run.stderr).toContain(`Available tools: `)
  expect(run.stderr).toContain(`; ${hint} ${folder} (after building it) [TOOL_REROUTED]`)
  // A project's .opencode/package.json depends on the plugin too, but has no entry: no such hint.
  const project = useTmpDir()
  mkdirSync(path.join(project, ".opencode"))
  writeFileSync(path.join(project, "package.json"), JSON.stringify({ dependencies: { "@opencode-ai/plugin": "1" } }))
  const plain = await runCli(["list", "--dir", project, "--no-global"])
  expect(plain.stderr).toContain("Run tool-tester from your project's folder, or pass --dir with it.")
})

test("with the global config folder read, the hint names it as a place opencode looks, not as left out", () => {
  const message = noToolsMessage("/project", true)
  expect(message).toContain("and from the tools/ folder of its global config. Run tool-tester")
  expect(message).not.toContain("--no-global")
})
