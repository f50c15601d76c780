// Outside git, opencode reads config in every folder up to the filesystem root, and Bun resolves
// imports above the project as anywhere. Observed on opencode 1.18.34 started in `parent/proj`,
// with no repository around: the tool of `parent/.opencode` was offered and ran, `parent/opencode.json`
// took effect (a tool it denies was not offered), and `parent/tsconfig.json`'s alias resolved. e2e
// copied the project alone: its opencode failed to start ("Cannot find module '@lib/shout'"). The
// copy now keeps the folders above the project that are the user's own, stopping below the home
// folder, the temp folder and any folder others can write to (such as /tmp).

import { chmodSync, existsSync, mkdirSync, symlinkSync } from "node:fs"
import path from "node:path"
import { describe, expect, it, vi } from "vitest"
import { createSandbox } from "../../src/opencode/sandbox.ts"
import { opencode, packageRoot, useTmpDir, writeFiles } from "../helpers.ts"
import { oneTurnOfCalls } from "./one-turn-of-calls.ts"

const plainTool = (text: string) => `import { tool } from "@opencode-ai/plugin"
export default tool({ description: ${JSON.stringify(text)}, args: {}, async execute() { return ${JSON.stringify(text)} } })
`

/** `parent/` (no git anywhere above) with a tool, a config denying the tool `denied`, a tsconfig alias, and the project `parent/proj`. */
function parentWithProject(base: string): { parent: string; project: string } {
  const parent = path.join(base, "parent")
  writeFiles(parent, {
    ".opencode/tools/from_parent.ts": plainTool("parent"),
    "opencode.json": JSON.stringify({ permission: { denied: "deny" } }),
    "tsconfig.json": JSON.stringify({ compilerOptions: { baseUrl: ".", paths: { "@lib/*": ["lib/*"] } } }),
    "lib/shout.ts": `export const shout = (text: string) => text.toUpperCase() + "!"\n`,
    "proj/.opencode/tools/loud.ts": `import { tool } from "@opencode-ai/plugin"
import { shout } from "@lib/shout"
export default tool({ description: "Shouts", args: { word: tool.schema.string() }, async execute(args) { return shout(args.word) } })
`,
    "proj/.opencode/tools/denied.ts": plainTool("denied"),
  })
  for (const folder of [".opencode", "proj/.opencode"])
    symlinkSync(path.join(packageRoot, "node_modules"), path.join(parent, folder, "node_modules"), "junction")
  return { parent, project: path.join(parent, "proj") }
}

describe("e2e outside git", () => {
  it.skipIf(!opencode.binary)(
    "offers the parent folder's tool, applies its opencode.json and resolves its tsconfig alias, as opencode does",
    { timeout: 300_000 },
    async () => {
      const { project } = parentWithProject(useTmpDir("tool-tester-no-git-"))
      const { offered, results } = await oneTurnOfCalls(project, [
        ["loud", { word: "hi" }],
        ["from_parent", {}],
      ])
      expect(offered).toEqual(expect.arrayContaining(["loud", "from_parent"]))
      expect(offered).not.toContain("denied")
      expect(results).toEqual([
        ["loud", "HI!"],
        ["from_parent", "parent"],
      ])
    },
  )

  it("keeps from a folder on the way only the path when it holds nothing opencode or Bun reads there by name", async () => {
    const base = useTmpDir("tool-tester-no-git-")
    const home = path.join(base, "home")
    // home/code is a folder of projects; home/code/parent/mid holds a file of its own only.
    writeFiles(path.join(home, "code"), {
      "other-project/README.md": "not this project's",
      "parent/.opencode/tools/from_parent.ts": plainTool("parent"),
      "parent/mid/notes.txt": "not read",
      "parent/mid/proj/.opencode/tools/denied.ts": plainTool("denied"),
    })
    vi.stubEnv("HOME", home)
    try {
      const sandbox = await createSandbox({
        directory: path.join(home, "code", "parent", "mid", "proj"),
        copyProject: true,
      })
      try {
        const top = path.join(sandbox.root, "project")
        expect(sandbox.project).toBe(path.join(top, "mid", "proj"))
        expect(existsSync(path.join(top, ".opencode", "tools", "from_parent.ts"))).toBe(true)
        expect(existsSync(path.join(top, "mid", "notes.txt"))).toBe(false)
        expect(existsSync(path.join(top, "other-project"))).toBe(false)
      } finally {
        await sandbox.dispose()
      }
    } finally {
      vi.unstubAllEnvs()
    }
  })

  it.skipIf(process.platform === "win32")(
    "keeps no folder above the project that others can write to, nor the home or temp folder and above",
    async () => {
      const base = useTmpDir("tool-tester-no-git-")
      // A folder everyone can write to, as /tmp is: what is in it is not the project's.
      const shared = path.join(base, "shared")
      const { project: inShared } = parentWithProject(shared)
      chmodSync(path.join(shared, "parent"), 0o777)
      // Under a home folder: the walk stops below it.
      const home = path.join(base, "home")
      mkdirSync(home)
      const { project: inHome } = parentWithProject(home)
      vi.stubEnv("HOME", home)
      // In a temp folder of the user's own (as on macOS and Windows): the walk stops below it, and
      // what else the temp folder holds is not kept.
      const temp = path.join(base, "temp")
      const { project: inTemp } = parentWithProject(temp)
      writeFiles(temp, { "stranger.txt": "not the project's" })
      try {
        const first = await createSandbox({ directory: inShared, copyProject: true })
        const second = await createSandbox({ directory: inHome, copyProject: true })
        vi.stubEnv("TMPDIR", temp)
        const third = await createSandbox({ directory: inTemp, copyProject: true })
        try {
          expect(third.project).toBe(path.join(third.root, "project", "proj"))
          expect(existsSync(path.join(third.root, "project", ".opencode", "tools", "from_parent.ts"))).toBe(true)
          expect(existsSync(path.join(third.root, "stranger.txt"))).toBe(false)
          expect(existsSync(path.join(third.root, "project", "stranger.txt"))).toBe(false)
          // The copy's top is the project itself: shared/parent/ is left out.
          expect(first.project).toBe(path.join(first.root, "project"))
          expect(existsSync(path.join(first.project, ".opencode", "tools", "loud.ts"))).toBe(true)
          // home/parent/ is kept, with its config; home/ is not.
          expect(second.project).toBe(path.join(second.root, "project", "proj"))
          const top = path.join(second.root, "project")
          expect(existsSync(path.join(top, ".opencode", "tools", "from_parent.ts"))).toBe(true)
          expect(existsSync(path.join(top, "opencode.json"))).toBe(true)
        } finally {
          await first.dispose()
          await second.dispose()
          await third.dispose()
        }
      } finally {
        vi.unstubAllEnvs()
      }
    },
  )
})
