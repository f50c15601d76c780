import { readFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, test } from "vitest"
import { packageRoot, runCli } from "../helpers.ts"
import { tmpProject } from "../support/tmp-project.ts"

// The docs' recommended tools must pass doctor as they are: a warning on the docs' own advice
// teaches users to ignore doctor.
const writingATool = readFileSync(path.join(packageRoot, "..", "..", "docs", "writing-a-tool.md"), "utf8")

function example(file: string): string {
  const start = writingATool.indexOf(`// ${file}\n`)
  expect(start, `docs/writing-a-tool.md has a block starting with // ${file}`).toBeGreaterThan(-1)
  return writingATool.slice(start, writingATool.indexOf("```", start))
}

describe("doctor on the docs' examples", { timeout: 60_000 }, () => {
  test("search_notes, which parses its own arguments with zod, gets no raw-argument warning", async () => {
    const directory = tmpProject({ ".opencode/tools/search_notes.ts": example(".opencode/tools/search_notes.ts") })
    const result = await runCli(["doctor", "--no-global", "--json"], { cwd: directory })
    expect(result.exitCode, result.stderr).toBe(0)
    expect((JSON.parse(result.stdout) as { findings: unknown[] }).findings).toEqual([])
  })

  test("the same arguments, used raw, still get the warnings", async () => {
    const raw = example(".opencode/tools/search_notes.ts")
      .replace(
        "const parsed = z.object(args).safeParse(input)",
        "const parsed = { success: true as const, data: input }",
      )
      .replace(/ {4}if \(!parsed\.success\)[^\n]*\n/, "")
    const directory = tmpProject({ ".opencode/tools/search_notes.ts": raw })
    const result = await runCli(["doctor", "--no-global", "--json"], { cwd: directory })
    const codes = (JSON.parse(result.stdout) as { findings: Array<{ code: string }> }).findings.map((f) => f.code)
    expect(codes).toEqual(expect.arrayContaining(["DEFAULT_NOT_APPLIED", "TRANSFORM_NOT_APPLIED"]))
  })
})
