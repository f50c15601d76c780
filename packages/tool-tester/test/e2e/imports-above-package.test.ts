// A tool of a monorepo's package may import what lies above the package: through a `paths` alias of
// the repository root's tsconfig.json (which Bun reads, also when the package's tsconfig.json
// `extends` it), or by a relative path. Observed on opencode 1.18.34 started in `app/` of such a
// repository: both tools ran ("HI!"), while e2e's copy, which kept only the `.opencode` folders,
// opencode.json and package.json files and node_modules above the package, failed to start
// ("Cannot find module '@lib/shout' from '.../project/app/.opencode/tools/alias.ts'").

import { execFileSync } from "node:child_process"
import { existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync } from "node:fs"
import path from "node:path"
import { describe, expect, it } from "vitest"
import { listTools, loadTools, runTool } from "../../src/index.ts"
import { createSandbox } from "../../src/opencode/sandbox.ts"
import { opencode, packageRoot, useTmpDir, writeFiles } from "../helpers.ts"
import { isolatedEnvironment } from "../support/tmp-project.ts"
import { oneTurnOfCalls } from "./one-turn-of-calls.ts"

const shouting = (specifier: string) => `import { tool } from "@opencode-ai/plugin"
import { shout } from "${specifier}"
export default tool({
  description: "Shouts a word",
  args: { word: tool.schema.string() },
  async execute(args) {
    return shout(args.word)
  },
})
`

/** A git repository whose root tsconfig.json maps `@lib/*` to its `lib/`, and a package `app/` whose tools import `lib/` through that alias and by a relative path. */
function aliasedMonorepo(): { repository: string; app: string } {
  const repository = useTmpDir("tool-tester-aliased-")
  execFileSync("git", ["init", "-q", repository])
  writeFiles(repository, {
    "tsconfig.json": JSON.stringify({ compilerOptions: { baseUrl: ".", paths: { "@lib/*": ["lib/*"] } } }),
    "lib/shout.ts": `export const shout = (text: string) => text.toUpperCase() + "!"\n`,
    "app/tsconfig.json": JSON.stringify({ extends: "../tsconfig.json" }),
    "app/.opencode/tools/alias.ts": shouting("@lib/shout"),
    "app/.opencode/tools/relative.ts": shouting("../../../lib/shout.ts"),
  })
  symlinkSync(path.join(packageRoot, "node_modules"), path.join(repository, "app/.opencode/node_modules"), "junction")
  return { repository, app: path.join(repository, "app") }
}

describe.skipIf(!opencode.binary)("a tool importing from above its package", () => {
  it("finds the root's tsconfig.json and the sources it leads to in e2e's copy, as in the package", async () => {
    const { repository, app } = aliasedMonorepo()
    const sandbox = await createSandbox({ directory: app, copyProject: true })
    try {
      const top = path.join(sandbox.root, "project")
      // Read through links: the root's tsconfig.json and lib/ are the user's, the .git is the copy's own.
      expect(readFileSync(path.join(top, "tsconfig.json"), "utf8")).toBe(
        readFileSync(path.join(repository, "tsconfig.json"), "utf8"),
      )
      expect(lstatSync(path.join(top, "lib")).isSymbolicLink()).toBe(true)
      expect(lstatSync(path.join(top, ".git")).isSymbolicLink()).toBe(false)
      for (const directory of [app, sandbox.project]) {
        const { env, home } = isolatedEnvironment()
        const project = await loadTools({ directory, env, home, engine: "bun", engineBinary: opencode.binary! })
        const custom = listTools(project).filter((tool) => tool.source !== "builtin")
        expect(custom.map((tool) => tool.id)).toEqual(["alias", "relative"])
        expect((await runTool(project, "alias", { word: "hi" })).output).toBe("HI!")
      }
    } finally {
      await sandbox.dispose()
    }
  })

  it("runs in the real opencode as list and run say", { timeout: 300_000 }, async () => {
    const { app } = aliasedMonorepo()
    const { result, results } = await oneTurnOfCalls(app, [
      ["alias", { word: "hi" }],
      ["relative", { word: "ho" }],
    ])
    expect(result.errors).toEqual([])
    expect(results).toEqual([
      ["alias", "HI!"],
      ["relative", "HO!"],
    ])
  })
})

it("links nothing that holds the throw-away folder itself (a temporary folder inside the repository)", async () => {
  const { repository, app } = aliasedMonorepo()
  const temp = path.join(repository, ".tmp")
  mkdirSync(temp)
  const sandbox = await createSandbox({ directory: app, copyProject: true, tempDirectory: temp })
  try {
    const top = path.join(sandbox.root, "project")
    expect(existsSync(path.join(top, ".tmp"))).toBe(false)
    expect(lstatSync(path.join(top, "lib")).isSymbolicLink()).toBe(true)
  } finally {
    await sandbox.dispose()
  }
})
