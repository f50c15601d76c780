// A folder variable set but empty (`XDG_CACHE_HOME=`, `TMPDIR=`) counts as unset, for tool-tester
// and for the programs it starts: Bun, given `XDG_CACHE_HOME=`, writes its transpiler cache
// (`bun/@t@/*.pile`) into the working folder, the user's project.
import { readdirSync } from "node:fs"
import { describe, expect, test } from "vitest"
import { FOLDER_VARIABLES, withoutEmptyFolders } from "../../src/runtime/folder-variables.ts"
import { opencode, runCli } from "../helpers.ts"
import { tmpProject } from "../support/tmp-project.ts"

const tool = `export default {
  description: "says hello",
  args: {},
  execute: async () => "hello",
}
`

const listing = (directory: string): string[] => readdirSync(directory, { recursive: true, encoding: "utf8" }).sort()

describe("empty folder variables", () => {
  test("are taken out of an environment given to a program; other empty variables and set ones stay", () => {
    const env = { XDG_CACHE_HOME: "", TMPDIR: "", XDG_CONFIG_HOME: "/c", FOO: "", PATH: "/bin" }
    expect(withoutEmptyFolders(env)).toEqual({ XDG_CONFIG_HOME: "/c", FOO: "", PATH: "/bin" })
    expect(env.XDG_CACHE_HOME).toBe("")
    expect(FOLDER_VARIABLES).toEqual(expect.arrayContaining(["XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME"]))
  })

  const leavesTheProject = async (flags: string[]) => {
    const directory = tmpProject({ ".opencode/tools/hello.ts": tool })
    const before = listing(directory)
    const empty = { XDG_CACHE_HOME: "", XDG_CONFIG_HOME: "", XDG_DATA_HOME: "", TMPDIR: "" }
    const result = await runCli(["run", "hello", "--json", ...flags], { cwd: directory, env: empty })
    expect(result.exitCode, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({ output: "hello" })
    expect(listing(directory)).toEqual(before)
  }

  test.skipIf(opencode.binary === undefined)(
    `a run under the bun engine with XDG_CACHE_HOME, XDG_CONFIG_HOME, XDG_DATA_HOME and TMPDIR empty leaves the project as it was (${opencode.reason ?? "here"})`,
    { timeout: 300_000 },
    () => leavesTheProject(["--engine", "bun", "--engine-binary", opencode.binary ?? ""]),
  )

  test(
    "a run under the node engine with XDG_CACHE_HOME, XDG_CONFIG_HOME, XDG_DATA_HOME and TMPDIR empty leaves the project as it was",
    { timeout: 300_000 },
    () => leavesTheProject(["--engine", "node"]),
  )
})
