// The opencode server behind a plugin's `input.client` (issue 22), side by side in the same run:
//
//   first call   a tool's first `client.app.agents()` in a freshly loaded project, the server's
//                start included, against `opencode serve` alone (the same binary, the same project)
//                from its start to its answer to the same request. Target: at most 1.2x.
//   later calls  the median of the next 20 `client.app.agents()` from the same tool. Target: <= 20 ms.
//                Beside it, the same request sent straight to `opencode serve` alone from Node.
//   list         `tool-tester list` (a new process, the bun engine) on a project whose plugin never
//                calls the client, against another build's bin.js given with --before (a build
//                without the server code, e.g. the commit before it). Target: within 5%.
//
// Run from packages/tool-tester, after building:
//   npm run build && node --import tsx bench/plugin-client.ts [--rounds N] [--before <other build's bin.js>]
// Every round runs each variant once, interleaved, so load from other processes hits them alike.

import { spawn, spawnSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { benchArgs } from "../../../bench/_args.mjs"
import { closeProject, loadTools, runTool } from "../src/index.ts"
import { findOpencode } from "../src/opencode/opencode-binary.ts"
import { median, ms } from "./_stats.ts"

const { values, count, fail } = benchArgs(import.meta.url, {
  rounds: { type: "string", default: "5" },
  before: { type: "string" },
})
const rounds = count("rounds")
const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const binary = findOpencode({ directory: packageRoot, path: false })
if (!binary) {
  console.error("No opencode binary: run pnpm install (Linux x64) or node scripts/install-opencode.mjs first")
  process.exit(1)
}

const scratch = mkdtempSync(path.join(os.tmpdir(), "bench-plugin-client-"))
process.on("exit", () => rmSync(scratch, { recursive: true, force: true }))

/** A git project whose `.opencode` resolves @opencode-ai/plugin from this workspace. */
function project(name: string, plugin: string): string {
  const directory = path.join(scratch, name)
  mkdirSync(path.join(directory, ".git"), { recursive: true })
  mkdirSync(path.join(directory, ".opencode", "plugins"), { recursive: true })
  mkdirSync(path.join(directory, ".opencode", "node_modules", "@opencode-ai"), { recursive: true })
  symlinkSync(
    path.resolve(packageRoot, "..", "plugin"),
    path.join(directory, ".opencode", "node_modules", "@opencode-ai", "plugin"),
    "junction",
  )
  writeFileSync(path.join(directory, ".opencode", "plugins", "plugin.ts"), plugin)
  return directory
}

const talking = project(
  "talking",
  `export const Timed = async ({ client }) => ({ tool: { timed: { description: "", args: {}, execute: async () => {
  let start = performance.now()
  await client.app.agents()
  const first = performance.now() - start
  const later = []
  for (let i = 0; i < 20; i++) { start = performance.now(); await client.app.agents(); later.push(performance.now() - start) }
  return JSON.stringify({ first, later })
} } } })
`,
)
const quiet = project(
  "quiet",
  `export const Quiet = async ({ client }) => ({ tool: { quiet: { description: "", args: {}, execute: async () => typeof client } } })\n`,
)

/** `opencode serve` alone: its start to its answer to GET /agent for the project (what app.agents() asks). */
async function serveAlone(directory: string): Promise<{ first: number; later: number[] }> {
  const start = performance.now()
  const child = spawn(binary as string, ["serve", "--hostname=127.0.0.1", "--port=0"], {
    cwd: directory,
    env: { ...process.env, PWD: directory, OPENCODE_SERVER_PASSWORD: "bench", OPENCODE_DISABLE_AUTOUPDATE: "1" },
    stdio: ["ignore", "pipe", "ignore"],
  })
  const url = await new Promise<string>((resolve, reject) => {
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString()
      const found = /listening on (\S+)/.exec(output)
      if (found?.[1]) resolve(found[1])
    })
    child.once("exit", () => reject(new Error(`opencode serve ended: ${output}`)))
  })
  const agents = async () => {
    const answer = await fetch(`${url}/agent?directory=${encodeURIComponent(directory)}`, {
      headers: { authorization: `Basic ${Buffer.from("opencode:bench").toString("base64")}` },
    })
    await answer.json()
  }
  await agents()
  const first = performance.now() - start
  const later: number[] = []
  for (let i = 0; i < 20; i++) {
    const call = performance.now()
    await agents()
    later.push(performance.now() - call)
  }
  child.kill("SIGKILL")
  return { first, later }
}

async function throughToolTester(directory: string): Promise<{ first: number; later: number[] }> {
  const loaded = await loadTools({ directory, engine: "bun", engineBinary: binary as string })
  try {
    const result = await runTool(loaded, "timed", {}, { timeoutMs: 600_000 })
    if (result.status !== "completed") throw new Error(result.output)
    return JSON.parse(result.output) as { first: number; later: number[] }
  } finally {
    closeProject(loaded)
  }
}

function listTime(bin: string): number {
  const start = performance.now()
  const result = spawnSync(process.execPath, [bin, "list", "--json"], { cwd: quiet, encoding: "utf8" })
  if (result.status !== 0) throw new Error(`list failed: ${result.stderr}`)
  return performance.now() - start
}

const ownBin = path.join(packageRoot, "bin.js")
const beforeBin = values.before === undefined ? undefined : path.resolve(values.before)
if (beforeBin !== undefined && !existsSync(beforeBin)) fail(`--before: ${beforeBin} does not exist`)
const alone: number[] = []
const aloneLater: number[] = []
const first: number[] = []
const later: number[] = []
const lists: number[] = []
const listsBefore: number[] = []
// One unmeasured round: the OS file cache, Bun's transpiler cache.
await serveAlone(talking)
await throughToolTester(talking)
for (let round = 0; round < rounds; round++) {
  const direct = await serveAlone(talking)
  alone.push(direct.first)
  aloneLater.push(...direct.later)
  const timed = await throughToolTester(talking)
  first.push(timed.first)
  later.push(...timed.later)
  for (let i = 0; i < 3; i++) {
    lists.push(listTime(ownBin))
    if (beforeBin) listsBefore.push(listTime(beforeBin))
  }
}

const ratio = median(first) / median(alone)
console.log(`input.client's opencode server, ${rounds} rounds (medians), opencode ${binary}\n`)
console.log(`  opencode serve alone, start to first answer   ${ms(median(alone)).padStart(8)}  1.00x`)
console.log(`  first client call (server start included)     ${ms(median(first)).padStart(8)}  ${ratio.toFixed(2)}x`)
console.log(`  later client calls (median of ${later.length})            ${ms(median(later), 1).padStart(8)}`)
console.log(`  later requests to serve alone, from Node      ${ms(median(aloneLater), 1).padStart(8)}  (informational)`)
console.log(`  list, plugin never calls the client           ${ms(median(lists)).padStart(8)}`)
if (beforeBin) {
  const listRatio = median(lists) / median(listsBefore)
  console.log(
    `  list, the --before build                      ${ms(median(listsBefore)).padStart(8)}  (${listRatio.toFixed(3)}x)`,
  )
}
console.log("")
console.log(
  `${ratio <= 1.2 ? "PASS" : "FAIL"}  first call ${ratio.toFixed(2)}x opencode serve alone (target: at most 1.2x)`,
)
console.log(
  `${median(later) <= 20 ? "PASS" : "FAIL"}  later calls ${ms(median(later), 1)} median (target: at most 20 ms)`,
)
if (beforeBin) {
  const listRatio = median(lists) / median(listsBefore)
  console.log(`${listRatio <= 1.05 ? "PASS" : "FAIL"}  list within 5% of the --before build (${listRatio.toFixed(3)}x)`)
}
