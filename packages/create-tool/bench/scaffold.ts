// Non-interactive scaffolding time of create-tool against create-vite scaffolding a template, in
// the same run, both spawned the same way (a fresh node process writing into a fresh folder), runs
// interleaved so that machine load hits every case alike. Prints medians, p90s and ratios to
// create-vite; `node -e 0` shows the floor every CLI pays for starting node.
//
//   pnpm --filter create-tool build && pnpm --filter create-tool bench     (BENCH_RUNS=40 to change)
import { spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { scaffold } from "../src/scaffold.ts"

const runs = Number(process.env.BENCH_RUNS ?? 30)
const warmup = 3
const bin = fileURLToPath(new URL("../bin.js", import.meta.url))
const createVite = createRequire(import.meta.url).resolve("create-vite/index.js")
const workspace = mkdtempSync(join(tmpdir(), "create-tool-bench-"))
let counter = 0

// Each run starts in a fresh empty folder and writes into it (create-vite joins even an absolute
// target to the working folder, so both get relative targets).
type Case = { name: string; args: string[] }

const cases: Case[] = [
  { name: "node -e 0 (startup floor)", args: ["-e", "0"] },
  {
    name: "create-vite --template vanilla-ts",
    args: [createVite, "app", "--template", "vanilla-ts", "--no-interactive"],
  },
  { name: "create-tool NAME", args: [bin, "hello", "--no-interactive"] },
  {
    name: "create-tool NAME --template python --exports a,b --js",
    args: [bin, "count", "-t", "python", "--exports", "a,b", "--js", "--no-interactive"],
  },
  { name: "create-tool NAME --plugin", args: [bin, "opencode-hello", "--plugin", "--no-interactive"] },
]

function timeOnce(entry: Case): number {
  const folder = join(workspace, String(counter++))
  mkdirSync(folder)
  const started = performance.now()
  const result = spawnSync(process.execPath, entry.args, { cwd: folder, stdio: ["ignore", "ignore", "pipe"] })
  const elapsed = performance.now() - started
  if (result.status !== 0) throw new Error(`${entry.name} failed: ${result.stderr.toString()}`)
  return elapsed
}

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!
}

try {
  const samples = new Map<string, number[]>(cases.map((entry) => [entry.name, []]))
  for (let index = 0; index < warmup + runs; index++) {
    for (const entry of cases) {
      const elapsed = timeOnce(entry)
      if (index >= warmup) samples.get(entry.name)!.push(elapsed)
    }
  }

  // In process: scaffold() alone, without starting node (what a program embedding it pays).
  const inProcess: number[] = []
  for (let index = 0; index < warmup + runs; index++) {
    const started = performance.now()
    await scaffold({ name: "hello", directory: join(workspace, String(counter++)) })
    if (index >= warmup) inProcess.push(performance.now() - started)
  }

  const baseline = percentile(samples.get("create-vite --template vanilla-ts")!, 0.5)
  const rows = [...samples].map(([name, values]) => {
    const median = percentile(values, 0.5)
    return `| ${name} | ${median.toFixed(1)} | ${percentile(values, 0.9).toFixed(1)} | ${(median / baseline).toFixed(2)} |`
  })
  const inProcessMedian = percentile(inProcess, 0.5)
  rows.push(
    `| scaffold() in process | ${inProcessMedian.toFixed(1)} | ${percentile(inProcess, 0.9).toFixed(1)} | ${(inProcessMedian / baseline).toFixed(2)} |`,
  )
  process.stdout.write(
    [
      `Node ${process.version}, ${runs} runs per case (after ${warmup} warm-up runs), interleaved.`,
      "",
      "| case | median ms | p90 ms | median / create-vite |",
      "| --- | ---: | ---: | ---: |",
      ...rows,
      "",
    ].join("\n"),
  )
} finally {
  rmSync(workspace, { recursive: true, force: true })
}
