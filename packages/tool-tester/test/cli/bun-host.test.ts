// The CLI run in Bun rather than Node, the one way docs/cli.md documents ("How tool-tester
// starts"): the documented line, run as written by a shell, with opencode's own Bun as `bun`.
import { spawnSync } from "node:child_process"
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs"
import path from "node:path"
import { expect, test } from "vitest"
import { autoInstallChosen } from "../../src/runtime/auto-install.ts"
import { opencode, packageRoot, runCli, useTmpDir, writeFiles } from "../helpers.ts"
import { isolatedHome } from "../support/isolated-home.ts"

const documented = readFileSync(path.join(packageRoot, "..", "..", "docs", "cli.md"), "utf8")
  .split("\n")
  .find((line) => line.startsWith("bun .opencode/"))

const why =
  process.platform === "win32"
    ? "the test makes a POSIX `bun` wrapper (the command itself is the same on Windows)"
    : opencode.reason

test("docs/cli.md documents one line that starts the CLI in Bun", () => {
  expect(documented).toBe("bun .opencode/node_modules/@opencode-ai/tool-tester/bin.js list")
})

test.skipIf(why !== undefined)(
  `the documented line runs the CLI in Bun and lists what Node lists${why ? ` (skipped: ${why})` : ""}`,
  {
    timeout: 120_000,
  },
  async () => {
    const project = useTmpDir("bun-host-project-")
    writeFiles(project, {
      ".opencode/tools/greet.ts": `export default { description: "Greets", args: {}, execute: async () => "hi" }\n`,
    })
    mkdirSync(path.join(project, ".opencode", "node_modules", "@opencode-ai"), { recursive: true })
    symlinkSync(packageRoot, path.join(project, ".opencode", "node_modules", "@opencode-ai", "tool-tester"), "dir")
    // `bun` is opencode's Bun; it leaves a mark, so the test knows the CLI started in it.
    const binFolder = useTmpDir("bun-host-bin-")
    const mark = path.join(binFolder, "bun-ran")
    writeFileSync(
      path.join(binFolder, "bun"),
      `#!/bin/sh\n: > "${mark}"\nBUN_BE_BUN=1 exec "${opencode.binary}" "$@"\n`,
    )
    chmodSync(path.join(binFolder, "bun"), 0o755)
    const home = useTmpDir("bun-host-home-")
    const env = {
      ...process.env,
      PATH: `${binFolder}${path.delimiter}${process.env["PATH"]}`,
      ...isolatedHome(home),
      NO_COLOR: "1",
    }
    const inBun = spawnSync("sh", ["-c", documented!], { cwd: project, env, encoding: "utf8" })
    expect(inBun.stderr).not.toMatch(/error/i)
    expect(inBun.status).toBe(0)
    expect(existsSync(mark)).toBe(true)
    const inNode = await runCli(["list"], { cwd: project, home, env: { PATH: env.PATH } })
    expect(inNode.exitCode).toBe(0)
    expect(inBun.stdout).toContain("greet")
    expect(inBun.stdout).toBe(inNode.stdout)
  },
)

test("the bin starts the CLI again with --no-install only when Bun was given no choice about auto-install", () => {
  expect(autoInstallChosen([])).toBe(false)
  expect(autoInstallChosen(["--smol"])).toBe(false)
  expect(autoInstallChosen(["--no-install"])).toBe(true)
  // Installs asked for by the user, which tool-tester does not override.
  expect(autoInstallChosen(["--install=force"])).toBe(true)
  expect(autoInstallChosen(["-i"])).toBe(true)
})
