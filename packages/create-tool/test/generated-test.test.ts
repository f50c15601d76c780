import { existsSync, readFileSync, realpathSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, test } from "vitest"
import { linkWorkspacePackages, run, runCli, useTmpDir, workspaceDirectory } from "./helpers.ts"

// The generated test as a newcomer meets it: it must fail whenever `tool-tester doctor` would, and
// the snapshot command its comment names must work when pasted from the project folder.

async function scaffoldProject(name = "greet"): Promise<{ cwd: string; env: Record<string, string> }> {
  const cwd = useTmpDir()
  const env = { XDG_CONFIG_HOME: join(cwd, "config"), HOME: join(cwd, "home") }
  const created = await runCli([name, "--no-interactive"], { cwd, env })
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
        'input: tool.schema.string().describe("The text the tool works on"),',
        'input: tool.schema.string().describe("The text the tool works on"),\n    when: tool.schema.date().optional(),',
      ),
    )
    const tested = await run("npm", ["test", "--prefix", ".opencode"], { cwd, env })
    expect(tested.code, tested.stdout + tested.stderr).not.toBe(0)
    expect(tested.stdout + tested.stderr).toContain("SCHEMA_UNREPRESENTABLE")
  })

  test("fails when the tool returns what opencode cannot send (a number), as doctor does", async () => {
    const { cwd, env } = await scaffoldProject()
    writeFileSync(
      join(cwd, ".opencode", "tools", "count.ts"),
      'import { tool } from "@opencode-ai/plugin"\nexport default tool({ description: "Counts", args: {}, async execute() { return 42 as unknown as string } })\n',
    )
    const tested = await run("npm", ["test", "--prefix", ".opencode"], { cwd, env })
    expect(tested.code, tested.stdout + tested.stderr).not.toBe(0)
    expect(tested.stdout + tested.stderr).toContain("BAD_RESULT")
  })

  test("the snapshot command its comment names rewrites the snapshot, from the project folder", async () => {
    const { cwd, env } = await scaffoldProject()
    const testFile = join(cwd, ".opencode", "test", "greet.test.ts")
    const toolFile = join(cwd, ".opencode", "tools", "greet.ts")
    writeFileSync(toolFile, readFileSync(toolFile, "utf8").replace("received: $", "got: $"))
    const failing = await run("npm", ["test", "--prefix", ".opencode"], { cwd, env })
    expect(failing.code, failing.stdout).not.toBe(0)

    const [command, ...args] = namedCommand(testFile, "rewrites it")
    const updated = await run(command!, args, { cwd, env })
    expect(updated.code, updated.stdout + updated.stderr).toBe(0)
    expect(readFileSync(testFile, "utf8")).toContain("greet got: hello")
    expect(existsSync(join(cwd, "node_modules")), "nothing written at the project root").toBe(false)

    const passing = await run("npm", ["test", "--prefix", ".opencode"], { cwd, env })
    expect(passing.code, passing.stdout + passing.stderr).toBe(0)
  })
})

describe("the scaffolded project's type check", { timeout: 240_000 }, () => {
  test("passes on a tool that uses Bun's API, which opencode runs tools in", async () => {
    const { cwd, env } = await scaffoldProject()
    const toolFile = join(cwd, ".opencode", "tools", "greet.ts")
    writeFileSync(toolFile, readFileSync(toolFile, "utf8").replace("}`", "}, from Bun $" + "{Bun.version}`"))
    const checked = await run("npm", ["run", "typecheck", "--prefix", ".opencode"], { cwd, env })
    expect(checked.code, checked.stdout + checked.stderr).toBe(0)
  })
})

describe("the scaffolded plugin package's type check and build", { timeout: 240_000 }, () => {
  test("pass on a tool that uses Bun's API, which opencode runs plugins in", async () => {
    const cwd = useTmpDir()
    const env = { XDG_CONFIG_HOME: join(cwd, "config"), HOME: join(cwd, "home") }
    const created = await runCli(["weather", "--plugin", "--no-interactive"], { cwd, env })
    expect(created.code, created.stderr).toBe(0)
    const root = join(cwd, "weather")
    linkWorkspacePackages(root)
    const toolFile = join(root, "src", "weather.ts")
    const source = readFileSync(toolFile, "utf8")
    const usesBun = source.replace(/return (`[^`]*)`/, "return $1 (Bun $" + "{Bun.version})`")
    expect(usesBun, source).not.toBe(source)
    writeFileSync(toolFile, usesBun)
    for (const script of ["typecheck", "build"]) {
      const done = await run("npm", ["run", script], { cwd: root, env })
      expect(done.code, `npm run ${script}: ${done.stdout}${done.stderr}`).toBe(0)
    }
  })
})

describe("README's unit test", { timeout: 240_000 }, () => {
  test("run as the README runs tests (npm test --prefix .opencode), gives tools opencode's directory", async () => {
    const { cwd, env } = await scaffoldProject("echo")
    const readme = readFileSync(join(workspaceDirectory, "README.md"), "utf8")
    const block = /In a unit test[^\n]*:\n\n```ts\n([\s\S]*?)```/.exec(readme)?.[1]
    expect(block, "README.md has an 'In a unit test' ts block").toBeDefined()
    writeFileSync(
      join(cwd, ".opencode", "tools", "where.ts"),
      'import { tool } from "@opencode-ai/plugin"\nexport default tool({ description: "Where", args: {}, async execute(_args, context) { return context.directory } })\n',
    )
    // The block is a complete file, pasted as it is; one more test checks the directory it gives tools.
    writeFileSync(
      join(cwd, ".opencode", "test", "readme.test.ts"),
      [
        block!.trimEnd(),
        "",
        'test("tools get opencode\'s directory", async () => {',
        `  expect((await runTool(project, "where", {})).output).toBe(${JSON.stringify(realpathSync(cwd))})`,
        "})",
        "",
      ].join("\n"),
    )
    const tested = await run("npm", ["test", "--prefix", ".opencode", "--", "readme"], { cwd, env })
    expect(tested.code, tested.stdout + tested.stderr).toBe(0)
    expect(tested.stdout).toMatch(/Tests +2 passed/)
  })
})
