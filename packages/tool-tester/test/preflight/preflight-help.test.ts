import { expect, test } from "vitest"
import { runCli } from "../helpers.ts"

test("preflight --help lists its usage, every option with a meaning, and examples", { timeout: 60_000 }, async () => {
  const result = await runCli(["preflight", "--help"])
  expect(result.exitCode).toBe(0)
  expect(result.stdout).toMatch(/^Usage: tool-tester preflight \[DIR\]/)
  for (const option of ["--e2e", "--timeout MS", "--engine E", "--engine-binary PATH", "--json", "-h, --help"])
    expect(result.stdout).toMatch(new RegExp(`\\n  ${option.replace(/[-[\]]/g, "\\$&")} {2,}\\w`))
  // Run from this checkout, the examples start with the scoped package (cli/invocation.ts).
  expect(result.stdout).toContain("\nExamples:\n  npx @opencode-ai/tool-tester preflight\n")
  const global = await runCli(["--help"])
  expect(global.stdout).toContain("tool-tester preflight [DIR]")
})
