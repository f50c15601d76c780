// `tool-tester list` over projects with 50, 100 and 200 tool files: how the time grows.
//
// Run from packages/tool-tester, after building:  npm run build && node --import tsx bench/list-scaling.ts [--rounds N]
//
// Each tool file is a TypeScript tool made with tool() and three zod args, as a user writes them.
// Every `list --json` is a new process (a cold start), so the figures include starting Node and
// the worker; the sizes are timed interleaved, round after round, and the median counts. Each size
// runs once first, so the compile cache holds every file (an edit-run loop changes one file at a
// time); one more row per size runs with an empty cache (a fresh TMPDIR), where every file is
// compiled.
//
// Target: linear or better growth: the cost of each extra file from 100 to 200 files is at most
// 1.5x its cost from 50 to 100 files (nothing quadratic), and 200 files list in under 5 s.

import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"

const { values } = parseArgs({ options: { rounds: { type: "string", default: "7" } } })
const rounds = Number(values.rounds)
const sizes = [0, 50, 100, 200]
const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const bin = path.join(packageRoot, "bin.js")
if (!existsSync(path.join(packageRoot, "dist", "cli", "main.js"))) {
  console.error("Build first: npm run build")
  process.exit(1)
}

const root = path.join(packageRoot, ".tmp")
mkdirSync(root, { recursive: true })
const benchRoot = mkdtempSync(path.join(root, "bench-list-"))
try {
  const projects = new Map(sizes.map((size) => [size, createProject(size)]))
  console.log(
    `tool-tester list --json, one new process per run, median of ${rounds} interleaved rounds (Node ${process.version})\n`,
  )
  const warm = new Map(sizes.map((size) => [size, [] as number[]]))
  const cold = new Map(sizes.map((size) => [size, [] as number[]]))
  for (let round = -1; round < rounds; round++) {
    for (const size of sizes) {
      const elapsed = list(projects.get(size)!, size, false)
      if (round >= 0) warm.get(size)!.push(elapsed)
    }
  }
  for (let round = 0; round < Math.max(3, Math.floor(rounds / 2)); round++) {
    for (const size of sizes) cold.get(size)!.push(list(projects.get(size)!, size, true))
  }
  const median = (values: number[]) => {
    const sorted = [...values].sort((left, right) => left - right)
    const middle = Math.floor(sorted.length / 2)
    return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
  }
  const base = median(warm.get(0)!)
  console.log("  files   warm cache   per file over 0 files   empty cache (informational)")
  for (const size of sizes) {
    const time = median(warm.get(size)!)
    const perFile = size === 0 ? "" : `${((time - base) / size).toFixed(2)} ms`
    console.log(
      `  ${String(size).padStart(5)}   ${`${time.toFixed(0)} ms`.padStart(10)}   ${perFile.padStart(21)}   ${`${median(cold.get(size)!).toFixed(0)} ms`.padStart(11)}`,
    )
  }
  const at = (size: number) => median(warm.get(size)!)
  const firstSlope = (at(100) - at(50)) / 50
  const secondSlope = (at(200) - at(100)) / 100
  console.log()
  console.log(
    `${secondSlope <= 1.5 * Math.max(firstSlope, 0.1) ? "PASS" : "FAIL"}  each file from 100 to 200 costs ${secondSlope.toFixed(2)} ms, from 50 to 100 ${firstSlope.toFixed(2)} ms (target: growth linear or better)`,
  )
  console.log(
    `${at(200) < 5000 ? "PASS" : "FAIL"}  200 tool files list in ${at(200).toFixed(0)} ms (target: under 5 s)`,
  )
} finally {
  rmSync(benchRoot, { recursive: true, force: true })
}

// --- internal ---

function list(project: string, size: number, freshTmp: boolean): number {
  const tmp = freshTmp ? mkdtempSync(path.join(benchRoot, "tmp-")) : undefined
  const env = { ...process.env, NO_COLOR: "1", ...(tmp ? { TMPDIR: tmp } : {}) }
  const started = performance.now()
  const child = spawnSync(process.execPath, [bin, "list", "--dir", project, "--no-global", "--json"], {
    env,
    encoding: "utf8",
  })
  const elapsed = performance.now() - started
  if (tmp) rmSync(tmp, { recursive: true, force: true })
  const listed = child.status === 0 ? (JSON.parse(child.stdout) as { tools: Array<{ source: string }> }) : undefined
  const custom = listed?.tools.filter((tool) => tool.source === "file").length
  if (custom !== size)
    throw new Error(`list of ${size} files failed (exit ${child.status}, ${custom} tools): ${child.stderr}`)
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
