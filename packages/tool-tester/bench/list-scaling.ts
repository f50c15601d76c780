// `tool-tester list` over projects with 50, 100 and 200 tool files: how the time grows, with the
// node engine and the bun engine side by side.
//
// Run from packages/tool-tester, after building:  npm run build && node --import tsx bench/list-scaling.ts [--rounds N]
//
// Each tool file is a TypeScript tool made with tool() and three zod args, as a user writes them.
// Every `list --json` is a new process (a cold start), so the figures include starting Node and
// its worker (`--engine node`), or Node and the engine's Bun process (`--engine bun`, with the
// opencode binary this repository installs passed as --engine-binary). The sizes and engines are
// timed interleaved, round after round, so load from other processes on this shared machine hits
// them alike; the median counts. Each size runs once first, so the compile cache holds every file
// (an edit-run loop changes one file at a time); for the node engine one more row per size runs
// with an empty cache (a fresh TMPDIR), where every file is compiled: informational. The bun
// engine imports TypeScript natively and keeps no compile cache of tool-tester's, so it has no
// such row.
//
// Targets, for each engine: linear or better growth: the cost of each extra file from 100 to 200
// files is at most 1.5x its cost from 50 to 100 files, or than 1 ms where that is less (nothing
// quadratic; smaller slopes are noise here), and 200 files list in
// under 5 s. And the bun engine lists 200 files no slower than the node engine (at most 1.0x).

import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { benchArgs } from "../../../bench/_args.mjs"
import { findBun } from "../src/engine-client/find-bun.ts"
import { median, ms } from "./_stats.ts"

// Below this a per-file slope is within this machine's run-to-run noise (~50 ms over 50 files):
// the bun engine's ~1 ms per file measured a slope of -0.01 ms from 50 to 100 files once.
const NOISE_MS_PER_FILE = 1

const rounds = benchArgs(import.meta.url, { rounds: { type: "string", default: "7" } }).count("rounds")
const sizes = [0, 50, 100, 200]
const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const bin = path.join(packageRoot, "bin.js")
if (!existsSync(path.join(packageRoot, "dist", "cli", "main.js"))) {
  console.error("Build first: npm run build")
  process.exit(1)
}
const bun = findBun({ env: process.env, directory: packageRoot })
if (!bun) {
  console.error("No opencode or Bun found for the bun engine: install the repository's dependencies")
  process.exit(1)
}

type Engine = "node" | "bun"
const engines: Engine[] = ["node", "bun"]
const engineArgs: Record<Engine, string[]> = {
  node: ["--engine", "node"],
  bun: ["--engine", "bun", "--engine-binary", bun.binary],
}

const root = path.join(packageRoot, ".tmp")
mkdirSync(root, { recursive: true })
const benchRoot = mkdtempSync(path.join(root, "bench-list-"))
try {
  const projects = new Map(sizes.map((size) => [size, createProject(size)]))
  console.log(
    `tool-tester list --json, one new process per run, median of ${rounds} interleaved rounds (Node ${process.version}; bun engine: ${bun.binary})\n`,
  )
  const key = (engine: Engine, size: number) => `${engine} ${size}`
  const warm = new Map(engines.flatMap((engine) => sizes.map((size) => [key(engine, size), [] as number[]])))
  const cold = new Map(sizes.map((size) => [size, [] as number[]]))
  for (let round = -1; round < rounds; round++) {
    for (const size of sizes) {
      for (const engine of engines) {
        const elapsed = list(projects.get(size)!, size, engine, false)
        // Round -1 warms the caches and is not counted.
        if (round >= 0) warm.get(key(engine, size))!.push(elapsed)
      }
    }
  }
  for (let round = 0; round < Math.max(3, Math.floor(rounds / 2)); round++) {
    for (const size of sizes) cold.get(size)!.push(list(projects.get(size)!, size, "node", true))
  }
  const at = (engine: Engine, size: number) => median(warm.get(key(engine, size))!)
  const perFile = (engine: Engine, size: number) =>
    size === 0 ? "" : `${((at(engine, size) - at(engine, 0)) / size).toFixed(2)} ms`
  const widths = [5, 9, 13, 12, 8, 12, 10]
  const row = (cells: string[]) => `  ${cells.map((cell, index) => cell.padStart(widths[index]!)).join("   ")}`
  console.log(row(["files", "node warm", "node per file", "node empty*", "bun warm", "bun per file", "bun / node"]))
  for (const size of sizes) {
    console.log(
      row([
        String(size),
        ms(at("node", size)),
        perFile("node", size),
        ms(median(cold.get(size)!)),
        ms(at("bun", size)),
        perFile("bun", size),
        `${(at("bun", size) / at("node", size)).toFixed(2)}x`,
      ]),
    )
  }
  console.log(
    "  warm: compile cache full; per file: over 0 files; * node empty: a fresh TMPDIR per run (informational)",
  )
  console.log()
  for (const engine of engines) {
    const firstSlope = (at(engine, 100) - at(engine, 50)) / 50
    const secondSlope = (at(engine, 200) - at(engine, 100)) / 100
    console.log(
      `${secondSlope <= 1.5 * Math.max(firstSlope, NOISE_MS_PER_FILE) ? "PASS" : "FAIL"}  ${engine} engine: each file from 100 to 200 costs ${secondSlope.toFixed(2)} ms, from 50 to 100 ${firstSlope.toFixed(2)} ms (target: growth linear or better)`,
    )
    console.log(
      `${at(engine, 200) < 5000 ? "PASS" : "FAIL"}  ${engine} engine: 200 tool files list in ${ms(at(engine, 200))} (target: under 5 s)`,
    )
  }
  const ratio = at("bun", 200) / at("node", 200)
  console.log(
    `${ratio <= 1.0 ? "PASS" : "FAIL"}  the bun engine lists 200 tool files in ${ratio.toFixed(2)}x the node engine's time (${ms(at("bun", 200))} vs ${ms(at("node", 200))}; target: at most 1.0x)`,
  )
} finally {
  rmSync(benchRoot, { recursive: true, force: true })
}

// --- internal ---

function list(project: string, size: number, engine: Engine, freshTmp: boolean): number {
  const tmp = freshTmp ? mkdtempSync(path.join(benchRoot, "tmp-")) : undefined
  const env = { ...process.env, NO_COLOR: "1", ...(tmp ? { TMPDIR: tmp } : {}) }
  const started = performance.now()
  const child = spawnSync(
    process.execPath,
    [bin, "list", "--dir", project, "--no-global", "--json", ...engineArgs[engine]],
    { env, encoding: "utf8" },
  )
  const elapsed = performance.now() - started
  if (tmp) rmSync(tmp, { recursive: true, force: true })
  const listed =
    child.status === 0
      ? (JSON.parse(child.stdout) as { tools: Array<{ source: string }>; engine?: { name: string } })
      : undefined
  const custom = listed?.tools.filter((tool) => tool.source === "file").length
  if (custom !== size || listed?.engine?.name !== engine)
    throw new Error(
      `list of ${size} files with the ${engine} engine failed (exit ${child.status}, ${custom} tools, engine ${listed?.engine?.name}): ${child.stderr}`,
    )
  return elapsed
}

/** A project inside the package, so tools resolve @opencode-ai/plugin and zod from its node_modules. */
function createProject(size: number): string {
  const directory = path.join(benchRoot, `files-${size}`)
  mkdirSync(path.join(directory, ".git"), { recursive: true })
  const tools = path.join(directory, ".opencode", "tools")
  mkdirSync(tools, { recursive: true })
  for (let index = 0; index < size; index++) {
    writeFileSync(
      path.join(tools, `tool_${String(index).padStart(3, "0")}.ts`),
      `import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Tool number ${index}",
  args: {
    query: tool.schema.string().describe("What to look for"),
    limit: tool.schema.number().int().min(1).optional(),
    mode: tool.schema.enum(["fast", "exact"]).optional(),
  },
  async execute(args: { query: string; limit?: number }) {
    const limit: number = args.limit ?? ${index}
    return \`\${args.query} \${limit}\`
  },
})
`,
    )
  }
  return directory
}
