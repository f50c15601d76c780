import { readdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, test } from "vitest"
import { linkWorkspacePackages, run, runCli, useTmpDir, workspaceDirectory } from "./helpers.ts"

// The code blocks of README.md and docs/ that claim to be a file (their first line is `// PATH`)
// must be that whole file: pasted as it is, it runs.

type FileBlock = { page: string; line: number; path: string; code: string }

const pages = [
  join(workspaceDirectory, "README.md"),
  ...readdirSync(join(workspaceDirectory, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => join(workspaceDirectory, "docs", name)),
]

function fileBlocks(page: string): FileBlock[] {
  const lines = readFileSync(page, "utf8").split("\n")
  const blocks: FileBlock[] = []
  for (let index = 0; index < lines.length; index++) {
    if (!/^```(ts|js)$/.test(lines[index]!.trim())) continue
    const end = lines.findIndex((line, at) => at > index && line.trim() === "```")
    const path = /^\/\/ (\S+\.[cm]?[jt]s)$/.exec(lines[index + 1]!.trim())?.[1]
    if (path !== undefined) {
      blocks.push({ page, line: index + 1, path, code: `${lines.slice(index + 1, end).join("\n")}\n` })
    }
    index = end
  }
  return blocks
}

const blocks = pages.flatMap(fileBlocks)

function block(pageName: string, path: string): string {
  const found = blocks.find((candidate) => candidate.page.endsWith(pageName) && candidate.path === path)
  expect(found, `${pageName} has a block that starts with // ${path}`).toBeDefined()
  return found!.code
}

describe("code blocks that claim to be a file", () => {
  test("every test file imports the vitest functions it calls (no globals: they are off by default)", () => {
    const missing = blocks
      .filter((candidate) => /\.test\.[jt]s$/.test(candidate.path))
      .flatMap((candidate) => {
        const imported =
          /import \{([^}]*)\} from "vitest"/
            .exec(candidate.code)?.[1]
            ?.split(",")
            .map((name) => name.trim()) ?? []
        const used = ["test", "expect", "describe", "beforeAll", "afterAll", "beforeEach", "afterEach", "it"].filter(
          (name) => new RegExp(`(^|[^.\\w])${name}(\\.\\w+)?\\(`, "m").test(candidate.code),
        )
        return used
          .filter((name) => !imported.includes(name))
          .map((name) => `${candidate.page}:${candidate.line} ${name}`)
      })
    expect(missing).toEqual([])
  })

  test("the README's unit test and testing-a-tool.md's first test, fuzz and e2e examples pass as pasted, in a scaffolded project", {
    timeout: 300_000,
  }, async () => {
    const cwd = useTmpDir()
    const created = await runCli(["echo", "--no-interactive"], { cwd })
    expect(created.code, created.stderr).toBe(0)
    const root = join(cwd, ".opencode")
    linkWorkspacePackages(root)
    symlinkSync(
      realpathSync(join(workspaceDirectory, "packages/tool-tester/node_modules/fast-check")),
      join(root, "node_modules/fast-check"),
    )
    // The README's file replaces the one create-tool wrote at the same path.
    writeFileSync(join(cwd, ".opencode/test/echo.test.ts"), block("README.md", ".opencode/test/echo.test.ts"))
    writeFileSync(join(cwd, ".opencode/tools/weather.ts"), block("writing-a-tool.md", ".opencode/tools/weather.ts"))
    writeFileSync(
      join(cwd, ".opencode/test/weather.test.ts"),
      block("testing-a-tool.md", ".opencode/test/weather.test.ts"),
    )
    writeFileSync(
      join(cwd, ".opencode/test/weather.fuzz.test.ts"),
      block("testing-a-tool.md", ".opencode/test/weather.fuzz.test.ts"),
    )
    // In the real opencode: the one tool-tester finds (its own package's, as a user's project installs it).
    writeFileSync(
      join(cwd, ".opencode/test/weather.e2e.test.ts"),
      block("testing-a-tool.md", ".opencode/test/weather.e2e.test.ts"),
    )
    const tested = await run(process.execPath, [join(root, "node_modules/.bin/vitest"), "run"], {
      cwd: root,
      timeout: 280_000,
    })
    expect(tested.code, tested.stdout + tested.stderr).toBe(0)
    expect(tested.stdout).toMatch(/Test Files +4 passed/)
  })
})
