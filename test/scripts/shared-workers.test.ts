import path from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, test } from "vitest"
import { byWorkerNeeds } from "../../scripts/shared-workers.mjs"
import { useTmpDir, writeFiles } from "../install/_run.ts"

const repository = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")

describe("which fast-tier files share a vitest worker", () => {
  test("a file that mocks, stubs, fakes timers or changes the process gets its own; the rest share", () => {
    const root = useTmpDir("shared-workers-")
    const files: Record<string, string> = {
      "test/plain.test.ts": 'import { runTool } from "../src/index.ts"\ntest("a", () => {})\n',
      "test/deep/nested/plain.test.ts": "test('b', () => { if (process.env.HOME === '') throw 0 })\n",
      "test/mocks.test.ts": 'vi.mock("../src/load-tools.ts", () => ({}))\n',
      "test/do-mock.test.ts": 'vi.doMock("node:fs")\n',
      "test/hoisted.test.ts": "const held = vi.hoisted(() => 1)\n",
      "test/stub-env.test.ts": 'vi.stubEnv("HOME", "/x")\n',
      "test/stub-global.test.ts": 'vi.stubGlobal("fetch", () => 0)\n',
      "test/timers.test.ts": "vi.useFakeTimers({ toFake: ['setTimeout'] })\n",
      "test/chdir.test.ts": "process.chdir('/')\n",
      "test/sets-env.test.ts": 'process.env.TOOL_TESTER_X = "1"\n',
      "test/sets-env-key.test.ts": 'process.env["A B"] = "1"\n',
      "test/deletes-env.test.ts": "delete process.env.X\n",
      "test/platform.test.ts": 'Object.defineProperty(process, "platform", { value: "win32" })\n',
      "test/helper.ts": 'vi.mock("x")\n',
      "test/types.test-d.ts": 'vi.mock("x")\n',
    }
    writeFiles(root, files)
    expect(byWorkerNeeds(root, "test")).toEqual({
      own: [
        "test/chdir.test.ts",
        "test/deletes-env.test.ts",
        "test/do-mock.test.ts",
        "test/hoisted.test.ts",
        "test/mocks.test.ts",
        "test/platform.test.ts",
        "test/sets-env-key.test.ts",
        "test/sets-env.test.ts",
        "test/stub-env.test.ts",
        "test/stub-global.test.ts",
        "test/timers.test.ts",
      ],
      shared: ["test/deep/nested/plain.test.ts", "test/plain.test.ts"],
    })
  })

  // These failed, or hung, when every fast-tier file shared workers (2026-12-03): compare-run-bound
  // mocks load-tools, and compare-run then loaded the mock.
  test("the repository's files that mock a module run in workers of their own", () => {
    const { own, shared } = byWorkerNeeds(path.join(repository, "packages", "tool-tester"), "test")
    expect(own).toContain("test/verify/compare-run-bound.test.ts")
    expect(own).toContain("test/engine/start-program.test.ts")
    expect(shared).toContain("test/verify/compare-run.test.ts")
  })
})
