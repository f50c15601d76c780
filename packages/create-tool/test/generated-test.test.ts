import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, test } from "vitest"
import { linkWorkspacePackages, run, runCli, useTmpDir } from "./helpers.ts"

// The generated test as a newcomer meets it: it must fail whenever `tool-tester doctor` would, and
// the snapshot command its comment names must work when pasted from the project folder.

async function scaffoldProject(): Promise<{ cwd: string; env: Record<string, string> }> {
  const cwd = useTmpDir()
  const env = { XDG_CONFIG_HOME: join(cwd, "config"), HOME: join(cwd, "home") }
  const created = await runCli(["greet", "--no-interactive"], { cwd, env })
  expect(created.code, created.stderr).toBe(0)
  linkWorkspacePackages(join(cwd, ".opencode"))
  return { cwd, env }
}

/** The commands a generated file names in backquotes, on the comment lines before `marker`. */
function namedCommand(file: string, marker: string): string[] {
  const text = readFileSync(file, "utf8")
  const at = text.indexOf(marker)
  expect(at, `"${marker}" in ${file}`).toBeGreaterThan(-1)
  const comment = text.slice(text.lastIndexOf("\n\n", at), at)
  const command = /`([^`]+)`/.exec(comment)?.[1]
  expect(command, comment).toBeDefined()
  return command!.split(" ")
}

describe("the generated test", { timeout: 240_000 }, () => {
  test("fails when opencode would offer no custom tool (a z.date() argument), as doctor does", async () => {
    const { cwd, env } = await scaffoldProject()
    const toolFile = join(cwd, ".opencode", "tools", "greet.ts")
    writeFileSync(
      toolFile,
      readFileSync(toolFile, "utf8").replace(
        'name: tool.schema.string().describe("Who to greet"),',
        'name: tool.schema.string().describe("Who to greet"),\n    when: tool.schema.date().optional(),',
      ),
    )
    const tested = await run("npm", ["test", "--prefix", ".opencode"], { cwd, env })
    expect(tested.code, tested.stdout + tested.stderr).not.toBe(0)
    expect(tested.stdout + tested.stderr).toContain("SCHEMA_UNREPRESENTABLE")
  })

  test("the snapshot command its comment names rewrites the snapshot, from the project folder", async () => {
    const { cwd, env } = await scaffoldProject()
    const testFile = join(cwd, ".opencode", "test", "greet.test.ts")
    const toolFile = join(cwd, ".opencode", "tools", "greet.ts")
    writeFileSync(toolFile, readFileSync(toolFile, "utf8").replace("`Hello, ${args.name}!`", "`Hi, ${args.name}!`"))
    const failing = await run("npm", ["test", "--prefix", ".opencode"], { cwd, env })
    expect(failing.code, failing.stdout).not.toBe(0)

    const [command, ...args] = namedCommand(testFile, "rewrites it")
    const updated = await run(command!, args, { cwd, env })
    expect(updated.code, updated.stdout + updated.stderr).toBe(0)
    expect(readFileSync(testFile, "utf8")).toContain("Hi, Ada!")
    expect(existsSync(join(cwd, "node_modules")), "nothing written at the project root").toBe(false)

    const passing = await run("npm", ["test", "--prefix", ".opencode"], { cwd, env })
    expect(passing.code, passing.stdout + passing.stderr).toBe(0)
  })
})
