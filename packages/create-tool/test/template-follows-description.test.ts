import { readFileSync, symlinkSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, test } from "vitest"
import { linkWorkspacePackages, nextStepCommands, run, runCli, useTmpDir, workspaceDirectory } from "./helpers.ts"

// A tool named and described as something else than a greeter must not be written as one: the
// default template has one neutral argument and says what the user gave it (issue 35). The next
// steps printed for it still pass as pasted.

const description = "Get the current weather for a city"

/** Words of a greeter: none of them belongs in a weather tool. */
const GREETER = /[Gg]reet|Hello|\bAda\b/

describe("the default template follows the name and description it was given", { timeout: 300_000 }, () => {
  test.each([
    ["TypeScript, project", ["weather"], ".opencode/tools/weather.ts", ".opencode/test/weather.test.ts"],
    ["JavaScript, project", ["weather", "--js"], ".opencode/tools/weather.js", ".opencode/test/weather.test.js"],
    ["TypeScript, plugin", ["weather", "--plugin"], "weather/src/weather.ts", "weather/test/weather.test.ts"],
  ])("%s: the tool and its test are no greeter", async (_label, args, toolPath, testPath) => {
    const cwd = useTmpDir()
    const created = await runCli([...args, "--description", description, "--no-interactive"], { cwd })
    expect(created.code, created.stderr).toBe(0)
    const tool = readFileSync(join(cwd, toolPath), "utf8")
    expect(tool).toContain(`description: ${JSON.stringify(description)}`)
    expect(tool).not.toMatch(GREETER)
    expect(readFileSync(join(cwd, testPath), "utf8")).not.toMatch(GREETER)
    expect(created.stdout).not.toMatch(GREETER)
  })

  test("the printed next steps, pasted, pass the generated test and run the tool", async () => {
    const cwd = useTmpDir()
    const created = await runCli(["weather", "--description", description, "--no-interactive"], { cwd })
    expect(created.code, created.stderr).toBe(0)
    const commands = nextStepCommands(created.stdout)
    expect(commands).toEqual([
      "npm install --prefix .opencode",
      "npm test --prefix .opencode",
      "npx --no --prefix .opencode tool-tester run weather input=hello",
    ])

    // The install needs the registry: the workspace's packages are linked in its place.
    const root = join(cwd, ".opencode")
    linkWorkspacePackages(root)
    symlinkSync(join(workspaceDirectory, "packages/tool-tester/bin.js"), join(root, "node_modules/.bin/tool-tester"))
    const env = { npm_config_offline: "true", npm_config_update_notifier: "false" }
    const tested = await run("bash", ["-c", commands[1]!], { cwd, env, timeout: 240_000 })
    expect(tested.code, tested.stdout + tested.stderr).toBe(0)
    expect(tested.stdout).toMatch(/Tests +2 passed/)
    const ran = await run("bash", ["-c", commands[2]!], { cwd, env, timeout: 180_000 })
    expect(ran.code, ran.stdout + ran.stderr).toBe(0)
    expect(ran.stdout).toContain("weather received: hello")
  })
})
