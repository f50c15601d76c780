import { execFile } from "node:child_process"
import { existsSync, mkdirSync, symlinkSync } from "node:fs"
import path from "node:path"
import { describe, expect, test } from "vitest"
import { opencode, packageRoot, useTmpDir, writeFiles } from "../helpers.ts"

// The documented forms for pnpm, yarn and bun start tool-tester inside .opencode (npm's
// `npx --prefix .opencode` does not): typed from the project folder, they print no "testing the
// project ..." notice, and what an init command writes lands in the project folder, as with npm.

const greet = `export default { description: "Greet", args: {}, async execute() { return "hi" } }\n`

function project(): string {
  const directory = useTmpDir("tool-tester-pm-")
  writeFiles(directory, {
    ".opencode/tools/greet.ts": greet,
    ".opencode/package.json": `${JSON.stringify({ name: "tools", private: true })}\n`,
  })
  mkdirSync(path.join(directory, ".opencode/node_modules/.bin"), { recursive: true })
  symlinkSync(path.join(packageRoot, "bin.js"), path.join(directory, ".opencode/node_modules/.bin/tool-tester"))
  return directory
}

function shell(command: string, cwd: string, env: Record<string, string> = {}) {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith("npm_") && key !== "INIT_CWD"),
  )
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      "bash",
      ["-c", command],
      { cwd, env: { ...clean, ...env, PWD: cwd, NO_COLOR: "1" }, timeout: 240_000 },
      (error, stdout, stderr) => resolve({ code: error === null ? 0 : Number(error.code ?? 1), stdout, stderr }),
    )
  })
}

const forms: Array<[string, string, Record<string, string>]> = [
  ["pnpm", "npx -y pnpm@10.34.9 --dir .opencode exec tool-tester", {}],
  ["yarn", "npx -y yarn@1.22.22 --silent --cwd .opencode tool-tester", {}],
  ...(opencode.binary === undefined
    ? []
    : [
        ["bun", `${opencode.binary} run --cwd .opencode tool-tester`, { BUN_BE_BUN: "1" }] as [
          string,
          string,
          Record<string, string>,
        ],
      ]),
]

describe("the documented pnpm, yarn and bun forms", { timeout: 300_000 }, () => {
  test.each(forms)("%s: e2e --init writes e2e.json in the project folder, with no notice", async (_, form, env) => {
    const directory = project()
    const result = await shell(`${form} e2e --init`, directory, env)
    expect(result.code, result.stderr).toBe(0)
    expect(existsSync(path.join(directory, "e2e.json"))).toBe(true)
    expect(existsSync(path.join(directory, ".opencode/e2e.json"))).toBe(false)
    expect(result.stderr).not.toContain("which this .opencode folder belongs to")
    expect(result.stdout).toContain("Wrote e2e.json")
    const listed = await shell(`${form} list --no-global --engine node`, directory, env)
    expect(listed.code, listed.stderr).toBe(0)
    expect(listed.stdout).toContain("greet")
    expect(listed.stderr).not.toContain("which this .opencode folder belongs to")
  })

  test("after cd .opencode, the notice still says which project is tested", async () => {
    const directory = project()
    const result = await shell(
      "npx --no-install tool-tester list --no-global --engine node",
      path.join(directory, ".opencode"),
    )
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toContain(`testing the project ${directory}, which this .opencode folder belongs to`)
  })
})
