// opencode started in a package of a monorepo reads the repository root's `.opencode` too (it reads
// config up to the git worktree root), and Bun resolves a tool's imports through the root's
// `node_modules` (a hoisted dependency). e2e's throw-away copy used to hold the package's folder
// alone: the root's tool was "unavailable" and the package's tool failed to import, while `list`
// and `run` in the same folder offered and ran both.

import { execFileSync } from "node:child_process"
import { existsSync, symlinkSync } from "node:fs"
import path from "node:path"
import { describe, expect, it } from "vitest"
import { listTools } from "../../src/list-tools.ts"
import { loadProjectHere } from "../../src/load-tools.ts"
import { createSandbox } from "../../src/opencode/sandbox.ts"
import { opencode, packageRoot, useTmpDir, writeFiles } from "../helpers.ts"
import { oneTurnOfCalls } from "./one-turn-of-calls.ts"

/** A git repository with a root `.opencode` tool and a hoisted dependency, and a package `app/` whose tool imports it. */
function monorepo(): { repository: string; app: string } {
  const repository = useTmpDir("tool-tester-monorepo-")
  execFileSync("git", ["init", "-q", repository])
  writeFiles(repository, {
    "node_modules/hoisted-dep/package.json": JSON.stringify({ name: "hoisted-dep", type: "module", main: "index.js" }),
    "node_modules/hoisted-dep/index.js": `export const shout = (text) => text.toUpperCase() + "!"\n`,
    ".opencode/tools/from_root.ts": `import { tool } from "@opencode-ai/plugin"
export default tool({ description: "A tool of the repository root", args: {}, async execute() { return "root" } })
`,
    "app/.opencode/tools/loud.ts": `import { tool } from "@opencode-ai/plugin"
import { shout } from "hoisted-dep"
export default tool({
  description: "Shouts a word",
  args: { word: tool.schema.string() },
  async execute(args) {
    return shout(args.word)
  },
})
`,
  })
  // @opencode-ai/plugin, as an install in each config folder gives it.
  for (const folder of [".opencode", "app/.opencode"])
    symlinkSync(path.join(packageRoot, "node_modules"), path.join(repository, folder, "node_modules"), "junction")
  return { repository, app: path.join(repository, "app") }
}

describe("e2e in a package of a monorepo", () => {
  it("keeps what is read above the package in its copy, up to the git root", async () => {
    const { repository, app } = monorepo()
    const sandbox = await createSandbox({ directory: app, copyProject: true })
    try {
      const top = path.join(sandbox.root, "project")
      expect(sandbox.project).toBe(path.join(top, "app"))
      const custom = async (directory: string) =>
        listTools(await loadProjectHere({ directory, global: false }))
          .filter((tool) => tool.source !== "builtin")
          .map((tool) => tool.id)
      expect(await custom(app)).toEqual(["from_root", "loud"])
      expect(await custom(sandbox.project)).toEqual(["from_root", "loud"])
    } finally {
      await sandbox.dispose()
    }
    // The copy wrote nothing into the repository: no .git of its own in the package.
    expect(existsSync(path.join(repository, "app", ".git"))).toBe(false)
  })

  it.skipIf(!opencode.binary)(
    "the real opencode offers the root's tool and runs the package's hoisted import, as list and run say",
    { timeout: 300_000 },
    async () => {
      const { app } = monorepo()
      const { offered, results } = await oneTurnOfCalls(app, [
        ["loud", { word: "hi" }],
        ["from_root", {}],
      ])
      expect(offered).toEqual(expect.arrayContaining(["loud", "from_root"]))
      expect(results).toEqual([
        ["loud", "HI!"],
        ["from_root", "root"],
      ])
    },
  )
})
