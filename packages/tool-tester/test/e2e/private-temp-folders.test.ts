// The copies eval, e2e and preflight make live under the temporary folder, which every user of the
// machine shares. Outside git, opencode (and tool-tester's loader, which follows it) read the
// `.opencode` folders up to the filesystem root, so anyone could plant `/tmp/.opencode/tools/x.ts`
// and run code as whoever runs an eval; preflight even listed a planted tool as the package's.
// The copy is now a worktree root of its own, in a folder only its user can enter.

import { mkdirSync, statSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { runE2E } from "../../src/e2e/run-e2e.ts"
import { createSandbox } from "../../src/opencode/sandbox.ts"
import { makeWorktreeRoot } from "../../src/opencode/worktree-root.ts"
import { loadProjectHere } from "../../src/load-tools.ts"
import { opencode, useTmpDir, writeFiles } from "../helpers.ts"
import { preflightCli, plainPlugin, writePackage } from "../preflight/preflight-packages.ts"

const roundTrip = fileURLToPath(new URL("../fixtures/e2e-round-trip", import.meta.url))

/** A temporary folder with a tool planted in `.opencode/tools/` (as another user could in /tmp). */
function plantedTemp(): string {
  const temp = useTmpDir("tool-tester-planted-")
  writeFiles(temp, {
    ".opencode/tools/planted.js": `export default { description: "Planted by someone else", args: {}, async execute() { return "planted" } }\n`,
  })
  return temp
}

describe("throw-away copies under a shared temporary folder", () => {
  it("are private (0700) and read no .opencode above them", async () => {
    const temp = plantedTemp()
    const sandbox = await createSandbox({ directory: roundTrip, copyProject: true, tempDirectory: temp })
    try {
      if (process.platform !== "win32") expect(statSync(sandbox.root).mode & 0o777).toBe(0o700)
      const project = await loadProjectHere({ directory: sandbox.project, global: false })
      // The copy's top stands for the fixture's git worktree root (copy-above.ts), and is a worktree root itself.
      expect(project.worktree).toBe(path.join(sandbox.root, "project"))
      // Every config folder read is in the copy: none above it, where the planted tool is.
      const folders = project.configDirectories.map((folder) => folder.path)
      expect(folders).toContain(path.join(sandbox.project, ".opencode"))
      for (const folder of folders) expect(folder.startsWith(project.worktree + path.sep), folder).toBe(true)
      expect(project.files.map((file) => path.basename(file.file)).sort()).toEqual(["echo.ts", "many_lines.ts"])
    } finally {
      await sandbox.dispose()
    }
  })

  it.skipIf(!opencode.binary)(
    "are where the real opencode stops looking for config",
    { timeout: 300_000 },
    async () => {
      const result = await runE2E({
        directory: roundTrip,
        tempDirectory: plantedTemp(),
        opencode: opencode.binary!,
        timeoutMs: 180_000,
        script: { turns: [{ text: "done" }] },
      })
      const names = (result.tools ?? []).map((tool) => (tool as { function: { name: string } }).function.name)
      expect(names).toContain("echo")
      expect(names).not.toContain("planted")
    },
  )

  it("stop the run when opencode cannot find git and config is planted above", async () => {
    const temp = plantedTemp()
    const copy = path.join(temp, "private", "project")
    mkdirSync(copy, { recursive: true })
    const withoutGit = { PATH: useTmpDir("tool-tester-no-git-") }
    await expect(makeWorktreeRoot(copy, withoutGit)).rejects.toMatchObject({
      code: "TEMP_FOLDER_UNSAFE",
      message: expect.stringContaining(path.join(temp, ".opencode")),
    })
    // Nothing planted: nothing to refuse.
    const clean = path.join(useTmpDir("tool-tester-clean-"), "project")
    mkdirSync(clean)
    await expect(makeWorktreeRoot(clean, withoutGit)).resolves.toBeUndefined()
    expect(statSync(path.join(clean, ".git")).isDirectory()).toBe(true)
  })
})

describe("preflight under a shared temporary folder", () => {
  it("lists only the package's tools, not one planted above its fresh project", { timeout: 600_000 }, async () => {
    const directory = writePackage(useTmpDir(), plainPlugin("opencode-preflight-planted"))
    const temp = plantedTemp()
    const { report, stderr } = await preflightCli(directory, ["--engine", "node"], { TMPDIR: temp })
    expect(report.tools, stderr).toEqual(["greet"])
  })
})
