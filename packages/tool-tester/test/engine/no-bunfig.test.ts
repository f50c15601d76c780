// opencode's Bun reads no bunfig.toml: observed on opencode 1.18.34, started in a project whose
// bunfig.toml preloads a module (and in a package of a git repository whose root has one), the
// preload did not run. Bun started as `BUN_BE_BUN=1 opencode` reads the bunfig.toml of its working
// directory, so the bun engine, which runs in the project, ran the project's preloads before its
// tools, and `run` answered what opencode does not.

import { symlinkSync } from "node:fs"
import path from "node:path"
import { describe, expect, test } from "vitest"
import { runE2E } from "../../src/e2e/run-e2e.ts"
import { opencode, packageRoot, runCli, useTmpDir, writeFiles } from "../helpers.ts"

/** A project whose bunfig.toml preloads a module that marks the runtime, and a tool that reads the mark. */
function preloadingProject(): string {
  const project = useTmpDir("tool-tester-bunfig-")
  writeFiles(project, {
    "bunfig.toml": `preload = ["./preload.ts"]\n`,
    "preload.ts": `;(globalThis as Record<string, unknown>).preloaded = "yes"\n`,
    ".opencode/tools/mark.ts": `import { tool } from "@opencode-ai/plugin"
export default tool({ description: "Reads the mark", args: {}, async execute() { return "preloaded=" + String((globalThis as Record<string, unknown>).preloaded) } })
`,
  })
  symlinkSync(path.join(packageRoot, "node_modules"), path.join(project, ".opencode", "node_modules"), "junction")
  return project
}

describe.skipIf(!opencode.binary)("the project's bunfig.toml", { timeout: 300_000 }, () => {
  test("is read neither by opencode nor by the bun engine", async () => {
    const project = preloadingProject()
    const ran = await runCli(["run", "mark", "--no-global", "--json", "--engine-binary", opencode.binary!], {
      cwd: project,
    })
    expect(ran.exitCode, ran.stderr).toBe(0)
    expect((JSON.parse(ran.stdout) as { output: string }).output).toBe("preloaded=undefined")
    const e2e = await runE2E({
      directory: project,
      opencode: opencode.binary!,
      timeoutMs: 240_000,
      script: { turns: [{ calls: [{ tool: "mark", args: {} }] }, { text: "done" }] },
    })
    expect(e2e.calls.map((call) => [call.tool, call.result])).toEqual([["mark", "preloaded=undefined"]])
  })
})
