// How long fuzzing takes, two ways:
// - the CLI, as a user runs it: `tool-tester fuzz weather --runs 1000 --seed 1` with the bun engine
//   (wall time of the whole command: start, engine, fast-check, 1,000 calls), beside the same CLI's
//   `run` of one call (its fixed cost) and, with `--compare <another build's bin.js>`, that build
//   running the same fuzz, interleaved round after round;
// - the library: fuzzTool with 1,000 runs of a simple, robust tool (nothing to find, so every run
//   is made), beside the baseline of 1,000 plain runTool calls with one fixed argument object on the
//   same loaded project, for each engine. The difference is what generating arguments (fast-check)
//   and the bookkeeping cost.
//
// Run from packages/tool-tester, after building:
//   npm run build && node --import tsx bench/fuzz.ts [--runs N] [--rounds R] [--compare path/to/bin.js]
//
// Targets: `tool-tester fuzz NAME --runs 1000` of a trivial tool at most 2 s wall with the bun
// engine (issue 32: 13.6-16.7 s on the build that waited 10 ms after every call); the library's
// 1,000 fuzz runs under 5 s (issue 15). Printed: medians over R rounds (default 3) and ratios.

import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { benchArgs } from "../../../bench/_args.mjs"
import { findBun } from "../src/engine-client/find-bun.ts"
import { fuzzTool } from "../src/fuzz/index.ts"
import { closeProject, loadTools, runTool } from "../src/index.ts"
import { median, ms } from "./_stats.ts"

const { values, count } = benchArgs(import.meta.url, {
  runs: { type: "string", default: "1000" },
  rounds: { type: "string", default: "3" },
  compare: { type: "string", multiple: true },
})
const runs = count("runs")
const rounds = count("rounds")
const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")

const tmp = path.join(packageRoot, ".tmp")
mkdirSync(tmp, { recursive: true })
const directory = mkdtempSync(path.join(tmp, "bench-fuzz-"))
writeFileSync(path.join(directory, ".git"), "")
mkdirSync(path.join(directory, ".opencode", "tools"), { recursive: true })
writeFileSync(
  path.join(directory, ".opencode", "tools", "weather.ts"),
  `import { tool } from "@opencode-ai/plugin"
export default tool({
  description: "Weather for a city",
  args: { city: tool.schema.string(), days: tool.schema.number().int().min(1).max(7).optional(), units: tool.schema.enum(["metric", "imperial"]).optional() },
  async execute(args) {
    if (typeof args.city !== "string") throw new Error("city must be a string")
    return "Sunny in " + args.city.slice(0, 40) + " for " + (typeof args.days === "number" ? args.days : 1) + " days"
  },
})
`,
)

let failed = false
try {
  failed ||= cliRows()
  console.log()
  console.log(`fuzz ${runs} runs vs ${runs} runTool calls, median of ${rounds} rounds\n`)
  console.log("engine  baseline (runTool)  fuzzTool     ratio  target (< 5 s)")
  for (const engine of ["bun", "node"] as const) {
    const project = await loadTools({ directory, global: false, engine })
    try {
      const baseline: number[] = []
      const fuzz: number[] = []
      for (let round = 0; round < rounds; round++) {
        let started = performance.now()
        for (let call = 0; call < runs; call++) await runTool(project, "weather", { city: "Paris", days: 3 })
        baseline.push(performance.now() - started)
        started = performance.now()
        const report = await fuzzTool(project, "weather", { runs, seed: round + 1 })
        fuzz.push(performance.now() - started)
        if (report.failures.length > 0 || report.calls !== runs) {
          throw new Error(
            `the robust tool should give no failure and ${runs} calls: ${JSON.stringify(report).slice(0, 300)}`,
          )
        }
      }
      const ok = median(fuzz) < 5000
      failed ||= !ok
      console.log(
        `${engine.padEnd(8)}${ms(median(baseline)).padEnd(20)}${ms(median(fuzz)).padEnd(13)}${(median(fuzz) / median(baseline)).toFixed(2).padEnd(7)}${ok ? "PASS" : "FAIL"}`,
      )
    } finally {
      closeProject(project)
    }
  }
} finally {
  rmSync(directory, { recursive: true, force: true })
}
process.exit(failed ? 1 : 0)

// --- internal ---

/** The CLI rows; true when the target is missed. */
function cliRows(): boolean {
  const bun = findBun({ env: process.env, directory: packageRoot })
  if (!bun) throw new Error("No opencode or Bun found for the bun engine: install the repository's dependencies")
  const compared = (values.compare ?? []).map((file) => path.resolve(file))
  for (const file of compared) if (!existsSync(file)) throw new Error(`--compare: ${file} does not exist`)
  const common = ["--dir", directory, "--no-global", "--engine", "bun", "--engine-binary", bun.binary]
  const fuzzArgs = ["fuzz", "weather", "--runs", String(runs), "--seed", "1", ...common]
  const rows: Array<{ name: string; command: string[] }> = [
    { name: `tool-tester fuzz --runs ${runs}`, command: [path.join(packageRoot, "bin.js"), ...fuzzArgs] },
    ...compared.map((file) => ({
      name: `  compared: ${path.basename(path.dirname(file))}`,
      command: [file, ...fuzzArgs],
    })),
    {
      name: "baseline: tool-tester run (1 call)",
      command: [path.join(packageRoot, "bin.js"), "run", "weather", "--args", '{"city":"Paris"}', ...common],
    },
  ]
  const times = new Map<string, number[]>(rows.map((row) => [row.name, []]))
  // Round -1 warms the caches (the compile caches, tool-tester's own) and is not counted.
  for (let round = -1; round < rounds; round++) {
    for (const row of rows) {
      const started = performance.now()
      const child = spawnSync(process.execPath, row.command, { cwd: directory, encoding: "utf8" })
      const elapsed = performance.now() - started
      if (child.status !== 0)
        throw new Error(`${row.name} failed (exit ${child.status}): ${child.stdout}\n${child.stderr}`)
      if (round >= 0) times.get(row.name)!.push(elapsed)
    }
  }
  const base = median(times.get(rows.at(-1)!.name)!)
  console.log(`The CLI with the bun engine (${bun.binary}), median of ${rounds} interleaved rounds:\n`)
  for (const [name, list] of times) {
    console.log(`  ${name.padEnd(36)} ${ms(median(list)).padStart(9)}  ${(median(list) / base).toFixed(2)}x the run`)
  }
  const fuzzWall = median(times.get(rows[0]!.name)!)
  const ok = fuzzWall <= 2000
  console.log(
    `\n${ok ? "PASS" : "FAIL"}  tool-tester fuzz weather --runs ${runs} takes ${ms(fuzzWall)} wall with the bun engine (target: at most 2 s)`,
  )
  return !ok
}
