// How long fuzzing takes: fuzzTool with 1,000 runs of a simple, robust tool (nothing to find, so
// every run is made), beside the baseline of 1,000 plain runTool calls with one fixed argument
// object on the same loaded project, in the same run, for each engine. The difference is what
// generating arguments (fast-check) and the bookkeeping cost.
//
// Run from packages/tool-tester, after building:  npm run build && node --import tsx bench/fuzz.ts [--runs N] [--rounds R]
//
// Target (issue 15): 1,000 fuzz runs of a simple tool under 5 s here. Printed per engine: the median
// over R rounds (default 3) of each, and the ratio fuzz / baseline.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { fuzzTool } from "../src/fuzz/index.ts"
import { closeProject, loadTools, runTool } from "../src/index.ts"
import { median, ms } from "./_stats.ts"

const { values } = parseArgs({
  options: { runs: { type: "string", default: "1000" }, rounds: { type: "string", default: "3" } },
})
const runs = Number(values.runs)
const rounds = Number(values.rounds)
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
