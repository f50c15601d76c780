import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { expect, test } from "vitest"
import { linkWorkspacePackages, nextStepCommands, run, runCli, useTmpDir, workspaceDirectory } from "./helpers.ts"

// The printed next steps, run as printed from the folder create-tool ran in (but the install, which
// needs the registry: the workspace's packages are linked into .opencode/node_modules instead).

test("npm's printed test and tool-tester commands run from the project folder as printed", async () => {
  const cwd = useTmpDir()
  const created = await runCli(["hello"], { cwd })
  expect(created.code).toBe(0)
  const commands = nextStepCommands(created.stdout)
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

test("beside a test script of the user's, npm's printed test and snapshot update commands run vitest, not it", async () => {
  const cwd = useTmpDir()
  mkdirSync(join(cwd, ".opencode"))
  const userTest = `node -e "console.log('own tests of the user'); process.exit(3)"`
  writeFileSync(join(cwd, ".opencode/package.json"), JSON.stringify({ scripts: { test: userTest } }))
  const created = await runCli(["hello"], { cwd })
  expect(created.code).toBe(0)
  const commands = nextStepCommands(created.stdout)
  expect(commands[1]).toBe("npm run test:tools --prefix .opencode")

  const root = join(cwd, ".opencode")
  linkWorkspacePackages(root)
  const env = { npm_config_offline: "true", npm_config_update_notifier: "false" }
  const tested = await run("bash", ["-c", commands[1]!], { cwd, env, timeout: 180_000 })
  expect(tested.code, tested.stdout + tested.stderr).toBe(0)
  expect(tested.stdout).toMatch(/Tests +\d+ passed/)
  expect(tested.stdout).not.toContain("own tests of the user")

  // The update its comment names, pasted: vitest's -u reaches vitest, which rewrites the snapshot.
  const testFile = join(root, "test/hello.test.ts")
  const update = /\/\/ `([^`]+)`, run from the project folder, rewrites it\./.exec(readFileSync(testFile, "utf8"))?.[1]
  expect(update).toBe("npm run test:tools --prefix .opencode -- -u")
  const toolFile = join(root, "tools/hello.ts")
  writeFileSync(toolFile, readFileSync(toolFile, "utf8").replace("received: $", "got: $"))
  const updated = await run("bash", ["-c", update!], { cwd, env, timeout: 180_000 })
  expect(updated.code, updated.stdout + updated.stderr).toBe(0)
  expect(readFileSync(testFile, "utf8")).toContain("hello got: hello")
  // The user's script is still theirs.
  const userRun = await run("npm", ["test", "--prefix", ".opencode"], { cwd, env, timeout: 60_000 })
  expect([userRun.code, userRun.stdout.includes("own tests of the user")]).toEqual([3, true])
}, 240_000)

test("under pnpm, the global folder's printed commands are npm's, and its test and tool-tester commands run as printed", async () => {
  // pnpm's node_modules in a config folder makes opencode start about 100 s later (doctor's PNPM_INSTALL).
  const cwd = useTmpDir()
  const env = {
    XDG_CONFIG_HOME: join(cwd, "config"),
    npm_config_user_agent: "pnpm/10.34.9 npm/? node/v20.19.0 linux x64",
  }
  const created = await runCli(["hello", "--global"], { cwd, env })
  expect(created.code).toBe(0)
  const commands = nextStepCommands(created.stdout)
  expect(commands.slice(0, 3)).toEqual(["cd config/opencode", "npm install", "npm test"])
  expect(created.stdout).toContain(`install ${join(cwd, "config/opencode")} with npm, not pnpm`)

  const root = join(cwd, "config/opencode")
  linkWorkspacePackages(root)
  symlinkSync(join(workspaceDirectory, "packages/tool-tester/bin.js"), join(root, "node_modules/.bin/tool-tester"))
  // The same global folder for tool-tester as for create-tool.
  const npmEnv = {
    XDG_CONFIG_HOME: env.XDG_CONFIG_HOME,
    npm_config_offline: "true",
    npm_config_update_notifier: "false",
  }
  const ran = await run("bash", ["-c", `${commands[0]} && ${commands[2]} && ${commands[3]}`], {
    cwd,
    env: npmEnv,
    timeout: 180_000,
  })
  expect(ran.code, ran.stdout + ran.stderr).toBe(0)
  expect(ran.stdout).toMatch(/Tests +\d+ passed/)
  expect(ran.stdout).toContain("hello received: hello")
}, 240_000)
