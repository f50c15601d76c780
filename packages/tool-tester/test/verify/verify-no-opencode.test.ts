// `tool-tester verify` where no opencode is installed: its advice is what verify takes.
import { expect, test, vi } from "vitest"
import { jsonError, runCli, useTmpDir } from "../helpers.ts"

// Not in the project, not beside tool-tester, not on PATH.
vi.mock("../../src/opencode/opencode-binary.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../src/opencode/opencode-binary.ts")>()),
  findOpencode: () => undefined,
}))

// verify has no --opencode-version (e2e's download): it checks tool-tester against the user's own
// opencode. The message told users to pass it, and verify then refused it as an unknown option.
test("no opencode installed: exit 1, OPENCODE_NOT_FOUND, naming --opencode PATH and no option verify refuses", async () => {
  const result = await runCli(["verify", "naming", "--json"], { cwd: useTmpDir() })
  expect(result.exitCode).toBe(1)
  const error = jsonError(result)
  expect(error.code).toBe("OPENCODE_NOT_FOUND")
  expect(error.message).toContain("pass its binary with --opencode PATH")
  expect(error.message).not.toContain("--opencode-version")
  expect(result.stdout).toBe("")
})
