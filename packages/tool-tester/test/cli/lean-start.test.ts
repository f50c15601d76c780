// What the bin loads before it answers: `--version` needs the manifest only, so it must not load
// the CLI's commands, its engine code or its reports (issue 32: it took 1.7x `node -e 0` when it
// loaded 26 modules); the help needs no engine; `run` starts its engine before it loads any
// package or command. A loader hook in the spawned Node lists every module it loads (imported, or
// required), and when it starts a process.
import { spawn } from "node:child_process"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import path from "node:path"
import { pathToFileURL } from "node:url"
import { expect, test } from "vitest"
import { collectOutput, opencode, packageRoot, useTmpDir } from "../helpers.ts"

/**
 * The package's own modules the bin loads for `args`, relative to the package, in load order; with
 * `events`, every module (a URL, or `require <name>` for what require() loads by name) and `spawn
 * <program>` for each process started, in order.
 */
async function modulesLoadedFor(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ loaded: string[]; events: string[]; stdout: string; exitCode: number | null }> {
  const folder = useTmpDir("tool-tester-lean-start-")
  const hooks = path.join(folder, "hooks.mjs")
  writeFileSync(
    hooks,
    `export async function load(url, context, next) {
  if (url.startsWith("file:")) process._rawDebug("LOADED " + url)
  return next(url, context)
}
`,
  )
  const register = path.join(folder, "register.mjs")
  writeFileSync(
    register,
    `import childProcess from "node:child_process"
import { Module, register } from "node:module"
register(${JSON.stringify(pathToFileURL(hooks).href)})
const load = Module._load
Module._load = function (request, ...rest) {
  if (!request.startsWith("node:") && !Module.isBuiltin(request)) process._rawDebug("REQUIRED " + request)
  return load.call(this, request, ...rest)
}
const spawn = childProcess.spawn
childProcess.spawn = function (command, ...rest) {
  process._rawDebug("SPAWNED " + command)
  return spawn.call(this, command, ...rest)
}
`,
  )
  const result = await collectOutput(
    spawn(process.execPath, ["--import", pathToFileURL(register).href, path.join(packageRoot, "bin.js"), ...args], {
      cwd: packageRoot,
      env,
    }),
  )
  const root = `${pathToFileURL(packageRoot).href}/`
  const loaded = result.stderr
    .split("\n")
    .filter((line) => line.startsWith("LOADED "))
    .map((line) => line.slice("LOADED ".length))
    .filter((url) => url.startsWith(root))
    .map((url) => url.slice(root.length))
  const events = result.stderr
    .split("\n")
    .filter((line) => /^(LOADED|REQUIRED|SPAWNED) /.test(line))
    .map((line) =>
      line
        .replace(/^LOADED /, "")
        .replace(/^REQUIRED /, "require ")
        .replace(/^SPAWNED /, "spawn "),
    )
  return { loaded, events, stdout: result.stdout, exitCode: result.exitCode }
}

/** The sources the package's bundled `files` (relative to the package) hold: each names them (`// src/engine-client/find-bun.ts`). */
function heldSources(files: string[]): string[] {
  return files.flatMap((file) =>
    [...readFileSync(path.join(packageRoot, file), "utf8").matchAll(/^\/\/ (src\/\S+)$/gm)].map((match) => match[1]!),
  )
}

test("--version and -v load the bin and the Node check, and not even the CLI's entry", {
  timeout: 60_000,
}, async () => {
  for (const flag of ["--version", "-v"]) {
    const { loaded, stdout, exitCode } = await modulesLoadedFor([flag])
    expect(exitCode).toBe(0)
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+/)
    expect(loaded).toEqual(["bin.js", "dist/cli/node-version.js"])
  }
})

test.skipIf(opencode.binary === undefined)(
  "--version in Bun is answered by bin.js in that one Bun: no second Bun without auto-install (bun-host.ts)",
  { timeout: 60_000 },
  async () => {
    // Loader hooks are Node's: under Bun, a preload (which a Bun started again inherits, as it
    // does every flag) says when each process ends.
    const folder = useTmpDir("tool-tester-lean-bun-")
    const preload = path.join(folder, "preload.mjs")
    writeFileSync(preload, `process.on("exit", () => process.stderr.write("ENDED " + process.pid + "\\n"))\n`)
    const result = await collectOutput(
      spawn(opencode.binary!, ["--preload", preload, path.join(packageRoot, "bin.js"), "--version"], {
        cwd: packageRoot,
        env: { ...process.env, BUN_BE_BUN: "1" },
      }),
    )
    expect(result.exitCode).toBe(0)
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+ \(models opencode /)
    expect(result.stderr.match(/^ENDED /gm)).toHaveLength(1)
  },
)

test("help and usage errors load none of the engine's modules, nor the commands' shared code", {
  timeout: 60_000,
}, async () => {
  for (const args of [["--help"], ["run", "--help"], ["help", "list"]]) {
    const { loaded, stdout, exitCode } = await modulesLoadedFor(args)
    expect(exitCode, args.join(" ")).toBe(0)
    expect(stdout).toContain("Usage:")
    expect(
      heldSources(loaded).filter((source) =>
        /^src\/(engine-client|tasks|runtime)\/|^src\/cli\/(_command|engine-option)\.ts$/.test(source),
      ),
      args.join(" "),
    ).toEqual([])
  }
})

test.skipIf(process.platform === "win32")(
  "run starts its engine before it loads any package (which, isexe: ~10 ms on the way), command, or the engine's connection",
  { timeout: 60_000 },
  async () => {
    // The auto engine looks for opencode on PATH (here, a folder with none) before it takes the one
    // this repository installs, or the node engine. On Windows `which` finds programs (PATHEXT).
    const folder = useTmpDir("tool-tester-lean-run-")
    const empty = path.join(folder, "bin")
    mkdirSync(empty)
    const { events, exitCode } = await modulesLoadedFor(
      ["run", "weather", "--dir", folder, "--no-global", "--json", "--args", "{}"],
      { ...process.env, PATH: empty, XDG_CACHE_HOME: folder, TOOL_TESTER_ENGINE: "", TOOL_TESTER_ENGINE_BINARY: "" },
    )
    expect(exitCode).not.toBe(0)
    // The first process started is the engine (then its reaper).
    const spawned = events.findIndex((event) => event.startsWith("spawn "))
    expect(spawned, events.join("\n")).toBeGreaterThan(0)
    const before = events.slice(0, spawned)
    const root = `${pathToFileURL(packageRoot).href}/`
    expect(before.filter((event) => !event.startsWith(root) || event.startsWith(`${root}node_modules/`))).toEqual([])
    expect(before.filter((event) => /_run-command-line|\/commands\//.test(event))).toEqual([])
    // What talking to the engine needs (its channel, its console capture, the JSON that survives a
    // tool's changes to the built-ins: ~40 KB) loads while the engine starts up, after the spawn.
    const files = (list: string[]) =>
      list.filter((event) => event.startsWith(root) && event.endsWith(".js")).map((url) => url.slice(root.length))
    const connection =
      /^src\/(engine-client\/(engine-connection|read-engine-frame|frames)|runtime\/stream-capture|_pristine)\.ts$/
    expect(heldSources(files(before)).filter((source) => connection.test(source))).toEqual([])
    expect(heldSources(files(events.slice(spawned))).filter((source) => connection.test(source))).toContain(
      "src/engine-client/engine-connection.ts",
    )
  },
)
