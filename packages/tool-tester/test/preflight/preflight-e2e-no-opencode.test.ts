import { writeFileSync } from "node:fs"
import path from "node:path"
import { expect, test, vi } from "vitest"
import { jsonError, runCli, useTmpDir } from "../helpers.ts"

// A machine with no opencode anywhere: not in the package, not beside tool-tester, not on PATH, not
// in tool-tester's cache.
vi.mock("../../src/opencode/opencode-binary.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../src/opencode/opencode-binary.ts")>()),
  findOpencode: () => undefined,
  cachedOpencode: () => undefined,
}))

// preflight has no --opencode or --opencode-version (e2e's way out), and its e2e runs in a
// throw-away project: the advice must be one preflight takes, for the package folder, with the
// package manager that installed it; and it comes before the minutes of packing and installing.
test("preflight --e2e with no opencode says how to get one, for the package and its package manager, before packing", async () => {
  const folder = useTmpDir()
  writeFileSync(path.join(folder, "package.json"), JSON.stringify({ name: "opencode-weather", version: "0.1.0" }))
  writeFileSync(path.join(folder, "pnpm-lock.yaml"), "lockfileVersion: '9.0'\n")
  const result = await runCli(["preflight", "--e2e", "--json"], { cwd: folder })
  const error = jsonError(result)
  expect(error.code).toBe("OPENCODE_NOT_FOUND")
  expect(error.message).toContain(
    `add it to the package with \`pnpm add -D opencode-${process.platform === "win32" ? "windows" : process.platform}-${process.arch}@1.18.34\` run in its folder`,
  )
  expect(error.message).not.toContain("--opencode")
  expect(result.exitCode).toBe(1)
  expect(result.stdout).toBe("")
}, 60_000)
