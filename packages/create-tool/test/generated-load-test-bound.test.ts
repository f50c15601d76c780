import { readFileSync } from "node:fs"
import { join } from "node:path"
import { expect, test } from "vitest"
import { callText, runCli, useTmpDir } from "./helpers.ts"

// The generated test's first test runs doctor (an engine started, each tool called once): on a busy
// machine that took past vitest's 5 s default, and `npm test --prefix .opencode`, pasted from the
// next steps, failed with "Test timed out in 5000ms" (docs-commands, scaffolding.md). It carries a
// bound of its own, and passes the test context's `signal` (aborted at that bound) to the matcher:
// without it, a tool call that hangs ran on past the test. So does every runTool() of the file.

test.each([
  ["default", "ts"],
  ["default", "js"],
  ["python", "ts"],
  ["python", "js"],
  ["shell", "ts"],
  ["shell", "js"],
])(
  "the %s template's generated %s test gives its load test a bound well past vitest's 5 s, and every call the test's signal",
  async (template, language) => {
    const cwd = useTmpDir()
    const args = ["tool", "--template", template, "--no-interactive", ...(language === "js" ? ["--js"] : [])]
    const created = await runCli(args, { cwd })
    expect(created.code, created.stderr).toBe(0)
    const generated = readFileSync(join(cwd, ".opencode", "test", `tool.test.${language}`), "utf8")
    const bound = /test\("opencode loads and offers the tools of tool", \{ timeout: ([\d_]+) \}, async/.exec(generated)
    expect(bound, generated).not.toBeNull()
    expect(Number(bound![1]!.replaceAll("_", ""))).toBeGreaterThanOrEqual(30_000)
    expect(generated).toContain("await expect(project).toLoadInOpencode({ signal })")
    // Each test that runs a tool takes the test context's signal, and hands it to every call.
    const tests = generated.split(/\n(?=test\()/).filter((part) => /\brunTool\(/.test(part))
    expect(tests.length, generated).toBeGreaterThan(0)
    for (const part of tests) {
      expect(part, part).toMatch(/^test\("[^"]*", async \(\{ signal \}\) => \{/)
      for (const call of part.matchAll(/\brunTool\(/g))
        expect(callText(part, call.index)).toMatch(/[{,]\s*signal\s*\}[\s,]*\)$/)
    }
  },
)
