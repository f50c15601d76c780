// bin.js as a shell runs it: a launcher that starts the CLI in Bun when the bun engine will run
// the tools with a Bun an earlier run used, and in Node otherwise. A PATH without node proves
// which one ran; the Bun-hosted CLI must answer exactly as the Node-hosted one.
import { spawnSync } from "node:child_process"
import { chmodSync, mkdirSync, readFileSync, realpathSync, symlinkSync, utimesSync, writeFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, test } from "vitest"
import { toolTesterCacheDirectory } from "../../src/e2e/opencode-binary.ts"
import { opencodePackageNames } from "../../src/e2e/opencode-packages.ts"
import { fixture, opencode, packageRoot, runCli, useTmpDir } from "../helpers.ts"
import { isRunning } from "../support/processes.ts"

// bin.js's launcher is a POSIX sh script (docs/cli.md, "How tool-tester starts") and these tests
// run the CLI in a Bun: without a shell, or an opencode binary for this platform, they skip.
const unavailable =
  process.platform === "win32" ? "bin.js's launcher is a sh script: Windows runs bin.js with node" : opencode.reason
const describeLauncher = describe.skipIf(unavailable !== undefined)
const skipped = unavailable === undefined ? "" : ` (skipped: ${unavailable})`
const repositoryOpencode = opencode.binary ?? "no-opencode"

const basic = fixture("cli-basic")
const outcomes = fixture("cli-run-outcomes")
const bun = opencode.binary === undefined ? "no-opencode" : realpathSync(opencode.binary)
const withBinary = ["--engine-binary", repositoryOpencode]
/** No node to be found: only a Bun can run the CLI. */
const noNode = { PATH: "/nonexistent" }
const greet = ["run", "greet", "--dir", basic, "--no-global", "--json", "--args", '{"name":"Ada"}']

/** A `node` that is not Node: it says so and exits 42, so a run that reached it shows. */
function fakeNode(): { PATH: string } {
  const folder = useTmpDir()
  writeFileSync(path.join(folder, "node"), '#!/bin/sh\necho "fake node $*"\nexit 42\n')
  chmodSync(path.join(folder, "node"), 0o755)
  return { PATH: folder }
}

/** runCli sets XDG_CACHE_HOME to home/.cache; macOS keeps caches in ~/Library/Caches. */
const hostsFile = (home: string) =>
  path.join(
    toolTesterCacheDirectory({ XDG_CACHE_HOME: path.join(home, ".cache") }, process.platform, home),
    "bun-hosts",
  )

/** A home whose list already names the repository's opencode, as after a first run. */
function homeWithListedBun(): string {
  const home = useTmpDir("tool-tester-home-")
  mkdirSync(path.dirname(hostsFile(home)), { recursive: true })
  writeFileSync(hostsFile(home), `${repositoryOpencode}\t${bun}\n`)
  return home
}

/** Timings differ from run to run; nothing else may. */
function steady(text: string): string {
  return text.replace(/"durationMs":[\d.]+/g, '"durationMs":0').replace(/\d+(\.\d+)? ms\b/g, "0 ms")
}

describeLauncher(`bin.js, the launcher${skipped}`, { timeout: 120_000 }, () => {
  test("a first run starts in Node and lists its Bun; the next starts in that Bun, not in the node on PATH", async () => {
    const home = useTmpDir("tool-tester-home-")
    const first = await runCli([...greet, ...withBinary], { home, launcher: true })
    expect(first.exitCode).toBe(0)
    expect(readFileSync(hostsFile(home), "utf8")).toBe(`${repositoryOpencode}\t${bun}\n`)

    const second = await runCli([...greet, ...withBinary], { home, launcher: true, env: fakeNode() })
    expect(second.stderr).toBe("")
    expect(second.exitCode).toBe(0)
    expect(steady(second.stdout)).toBe(steady(first.stdout))
    expect(JSON.parse(second.stdout).engine).toEqual({ name: "bun", version: "1.3.14", binary: bun })
  })

  test("a Bun not listed, or changed since it was listed, starts Node, which lists it again", async () => {
    const home = useTmpDir("tool-tester-home-")
    const unlisted = await runCli([...greet, ...withBinary], { home, launcher: true, env: fakeNode() })
    expect(unlisted.exitCode).toBe(42)
    expect(unlisted.stdout).toMatch(/^fake node .*bin\.js run greet/)

    const listed = homeWithListedBun()
    utimesSync(hostsFile(listed), new Date(0), new Date(0))
    const changed = await runCli([...greet, ...withBinary], { home: listed, launcher: true, env: fakeNode() })
    expect(changed.exitCode).toBe(42)
    const again = await runCli([...greet, ...withBinary], { home: listed, launcher: true })
    expect(again.exitCode).toBe(0)
    expect((await runCli([...greet, ...withBinary], { home: listed, launcher: true, env: fakeNode() })).exitCode).toBe(
      0,
    )
  })

  test("with no node at all, the Bun found runs the CLI, listed or not", async () => {
    const home = useTmpDir("tool-tester-home-")
    const result = await runCli([...greet, ...withBinary], { home, launcher: true, env: noNode })
    expect(result.stderr).toBe("")
    expect(result.exitCode).toBe(0)
    expect(JSON.parse(result.stdout).output).toBe("Hello, Ada!")
    // --engine node has nothing to run on: the shell says node is missing.
    const onNode = await runCli([...greet, ...withBinary, "--engine", "node"], { home, launcher: true, env: noNode })
    expect(onNode.exitCode).toBe(127)
    expect(onNode.stderr).toContain("node: not found")
  })

  test("opencode on PATH, npm's launcher script included, is found as the CLI finds it", async () => {
    // npm's opencode-ai: bin/opencode is a Node script; the platform package beside it holds the binary.
    const root = useTmpDir()
    const platformBin = path.join(root, "lib", "opencode-ai", "node_modules", opencodePackageNames()[0]!, "bin")
    mkdirSync(platformBin, { recursive: true })
    symlinkSync(bun, path.join(platformBin, "opencode"))
    const script = path.join(root, "lib", "opencode-ai", "bin", "opencode")
    mkdirSync(path.dirname(script), { recursive: true })
    writeFileSync(script, "#!/usr/bin/env node\nthrow new Error('never run by tool-tester')\n")
    chmodSync(script, 0o755)
    const pathBin = path.join(root, "bin")
    mkdirSync(pathBin)
    symlinkSync(script, path.join(pathBin, "opencode"))
    const nodeFolder = path.dirname(process.execPath)

    const home = useTmpDir("tool-tester-home-")
    const first = await runCli(greet, { home, launcher: true, env: { PATH: `${pathBin}:${nodeFolder}` } })
    expect(first.exitCode).toBe(0)
    expect(JSON.parse(first.stdout).engine.binary).toBe(bun)
    expect(readFileSync(hostsFile(home), "utf8")).toBe(
      `${path.join(pathBin, "opencode")}\t${path.join(platformBin, "opencode")}\n`,
    )
    const second = await runCli(greet, { home, launcher: true, env: { PATH: `${pathBin}:${fakeNode().PATH}` } })
    expect(second.stderr).toBe("")
    expect(steady(second.stdout)).toBe(steady(first.stdout))
  })

  test("what the Bun-hosted CLI does not do (here the node engine) is done by Node", () => {
    const child = spawnSync(bun, [path.join(packageRoot, "bin.js"), ...greet, "--engine", "node"], {
      env: { ...process.env, TOOL_TESTER_BUN_HOST: `option:${bun}`, BUN_BE_BUN: "1" },
      encoding: "utf8",
    })
    expect(child.status).toBe(0)
    expect(JSON.parse(child.stdout).engine).toEqual({
      name: "node",
      version: process.versions.node,
      binary: expect.any(String),
    })
  })

  test("a Bun host told to use a binary it cannot start says so in one line, exit 1, as Node does", () => {
    const garbage = path.join(useTmpDir(), "not-a-program")
    writeFileSync(garbage, "\u0000\u0001 not a program")
    chmodSync(garbage, 0o755)
    const child = spawnSync(bun, [path.join(packageRoot, "bin.js"), ...greet, "--engine-binary", garbage], {
      env: { ...process.env, TOOL_TESTER_BUN_HOST: `option:${bun}`, BUN_BE_BUN: "1" },
      encoding: "utf8",
    })
    expect(child.status).toBe(1)
    const lines = child.stderr.trimEnd().split("\n")
    expect(lines).toHaveLength(1)
    expect(JSON.parse(lines[0]!).error).toMatchObject({
      code: "ENGINE_FAILED",
      message: expect.stringContaining(garbage),
    })
  })

  test("--engine node, --watch, help and the other commands go to Node without looking for a Bun", async () => {
    const home = homeWithListedBun()
    for (const args of [
      [...greet, ...withBinary, "--engine", "node"],
      [...greet, ...withBinary, "--engine=node"],
      ["run", "--help"],
      ["--version"],
    ]) {
      const result = await runCli(args, { home, launcher: true, env: noNode })
      expect(result.exitCode, args.join(" ")).toBe(127)
    }
    const viaEnv = await runCli([...greet, ...withBinary], {
      home,
      launcher: true,
      env: { ...noNode, TOOL_TESTER_ENGINE: "node" },
    })
    expect(viaEnv.exitCode).toBe(127)
  })
})

// The same command lines through both hosts: exit code, stdout and stderr alike.
describeLauncher(`the Bun-hosted CLI answers as the Node-hosted one${skipped}`, { timeout: 120_000 }, () => {
  const cases: Array<[string, string[]]> = [
    ["run, human report", ["run", "greet", "--dir", basic, "--no-global", "name=Ada"]],
    ["run, a tool that throws", ["run", "throws", "--dir", outcomes, "--no-global", "--json"]],
    ["run, a tool that calls process.exit", ["run", "exits", "--dir", outcomes, "--no-global", "--json"]],
    [
      "run, a tool aborted at its timeout",
      ["run", "waits_for_abort", "--dir", outcomes, "--no-global", "--json", "--timeout", "300"],
    ],
    ["run, a tool in a busy loop", ["run", "busy_loop", "--dir", outcomes, "--no-global", "--timeout", "300"]],
    ["run, an unknown tool rerouted", ["run", "gret", "--dir", basic, "--no-global"]],
    ["run, a bad option", ["run", "greet", "--dir", basic, "--no-global", "--nmae", "Ada"]],
    ["list", ["list", "--dir", basic, "--no-global"]],
    ["schema --json", ["schema", "greet", "--dir", basic, "--no-global", "--json"]],
    ["doctor", ["doctor", "--dir", outcomes, "--no-global"]],
    ["fuzz", ["fuzz", "greet", "--dir", basic, "--no-global", "--runs", "20", "--seed", "7"]],
  ]
  test.each(cases)("%s", async (_name, args) => {
    const home = homeWithListedBun()
    const onNode = await runCli([...args, ...withBinary], { home })
    const onBun = await runCli([...args, ...withBinary], { home, launcher: true, env: noNode })
    expect({ exitCode: onBun.exitCode, stdout: steady(onBun.stdout), stderr: steady(onBun.stderr) }).toEqual({
      exitCode: onNode.exitCode,
      stdout: steady(onNode.stdout),
      stderr: steady(onNode.stderr),
    })
  })

  test("a child process the tool started and did not wait for is gone once run exits", async () => {
    const home = homeWithListedBun()
    const args = ["run", "leaves_a_child", "--dir", fixture("hostile/leaves-a-child"), "--no-global", "--json"]
    // The tool starts `sleep`: a PATH with it, and still no node.
    const sleepOnly = useTmpDir()
    symlinkSync(path.join("/bin", "sleep"), path.join(sleepOnly, "sleep"))
    const result = await runCli([...args, ...withBinary], { home, launcher: true, env: { PATH: sleepOnly } })
    expect(result.exitCode).toBe(0)
    const pid = Number(JSON.parse(result.stdout).output)
    expect(pid).toBeGreaterThan(0)
    await expect.poll(() => isRunning(pid), { timeout: 10_000 }).toBe(false)
  })

  test("a report larger than a pipe holds reaches a reader that starts late, whole", async () => {
    const home = homeWithListedBun()
    const args = ["run", "prints_a_gigabyte", "--dir", outcomes, "--no-global", "--json", ...withBinary]
    const late = (child: { stdout: NodeJS.ReadableStream }) => {
      child.stdout.pause()
      setTimeout(() => child.stdout.resume(), 1_000)
    }
    const result = await runCli(args, { home, launcher: true, env: noNode, onSpawn: late })
    expect(result.exitCode).toBe(0)
    expect(result.stdout.length).toBeGreaterThan(65_536)
    const json = JSON.parse(result.stdout) as { output: string; console: { stdout: string } }
    expect(json.output).toBe("printed a gigabyte")
    expect(json.console.stdout).toHaveLength(65_536)
  })
})
