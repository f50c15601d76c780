// Wall time of one scripted `tool-tester e2e` run with one tool call, against the floor: the same
// opencode binary answering a single text-only turn from the same mock, in a sandbox prepared
// beforehand (so the baseline pays for opencode only, while the e2e run pays for everything: copy
// of the project, sandbox, plugin pre-install, the tool call's extra model turn, teardown).
// Target: under 2x the baseline. From packages/tool-tester:
//
//   node --import tsx bench/e2e.ts [--runs N]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { benchArgs } from "../../../bench/_args.mjs"
import { resolveOpencode } from "../src/opencode/opencode-binary.ts"
import { e2eCallOnce, textTurnOnce } from "./_opencode-runs.ts"
import { median } from "./_stats.ts"

const runs = benchArgs(import.meta.url, { runs: { type: "string", default: "3" } }).count("runs")
const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")

// A project with one tool, inside the package so `@opencode-ai/plugin` resolves as it would for a user.
mkdirSync(path.join(packageRoot, ".tmp"), { recursive: true })
const project = mkdtempSync(path.join(packageRoot, ".tmp", "bench-e2e-"))
mkdirSync(path.join(project, ".opencode", "tools"), { recursive: true })
writeFileSync(
  path.join(project, ".opencode", "tools", "greet.ts"),
  `import { tool } from "@opencode-ai/plugin"\nexport default tool({ description: "greet", args: { name: tool.schema.string() }, execute: async (args) => "hi " + args.name })\n`,
)
const empty = mkdtempSync(path.join(os.tmpdir(), "bench-e2e-empty-"))

try {
  const binary = await resolveOpencode({ directory: packageRoot })
  const baseline: number[] = []
  const e2e: number[] = []
  // Interleaved, so a slow moment of this noisy machine hits both sides alike.
  for (let index = 0; index < runs; index++) {
    baseline.push(await textTurnOnce(binary, empty))
    e2e.push(await e2eCallOnce(project, { tool: "greet", args: { name: "Ada" }, expected: "hi Ada" }))
  }
  const ratio = median(e2e) / median(baseline)
  console.log(`runs: ${runs} of each, interleaved; opencode ${binary}`)
  console.log(
    `baseline  opencode run, one text-only turn:        median ${median(baseline).toFixed(0)} ms  (${baseline.map((value) => value.toFixed(0)).join(", ")})`,
  )
  console.log(
    `e2e       tool-tester e2e, one tool call, all in:  median ${median(e2e).toFixed(0)} ms  (${e2e.map((value) => value.toFixed(0)).join(", ")})`,
  )
  console.log(`ratio e2e / baseline: ${ratio.toFixed(2)}x  target < 2x: ${ratio < 2 ? "PASS" : "FAIL"}`)
} finally {
  rmSync(project, { recursive: true, force: true })
  rmSync(empty, { recursive: true, force: true })
}
