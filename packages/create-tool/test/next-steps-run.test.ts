import { symlinkSync } from "node:fs"
import { join } from "node:path"
import { expect, test } from "vitest"
import { linkWorkspacePackages, run, runCli, useTmpDir, workspaceDirectory } from "./helpers.ts"

// The printed next steps, run as printed from the folder create-tool ran in (but the install, which
// needs the registry: the workspace's packages are linked into .opencode/node_modules instead).

test("npm's printed test and tool-tester commands run from the project folder as printed", async () => {
  const cwd = useTmpDir()
  const created = await runCli(["hello"], { cwd })
  expect(created.code).toBe(0)
  const lines = created.stdout.split("\n")
  const start = lines.indexOf("Next steps:")
  const commands = lines.slice(start + 1, lines.indexOf("", start)).map((line) => line.trim())
  expect(commands[0]).toBe("npm install --prefix .opencode")

  const root = join(cwd, ".opencode")
  linkWorkspacePackages(root)
  symlinkSync(join(workspaceDirectory, "packages/tool-tester/bin.js"), join(root, "node_modules/.bin/tool-tester"))
  const env = { npm_config_offline: "true", npm_config_update_notifier: "false" }
  const tested = await run("bash", ["-c", commands[1]!], { cwd, env, timeout: 180_000 })
  expect(tested.code, tested.stdout + tested.stderr).toBe(0)
  expect(tested.stdout).toMatch(/Tests +\d+ passed/)
  const ran = await run("bash", ["-c", commands[2]!], { cwd, env, timeout: 180_000 })
  expect(ran.code, ran.stdout + ran.stderr).toBe(0)
  expect(ran.stdout).toContain("hello received: hello")
}, 240_000)
