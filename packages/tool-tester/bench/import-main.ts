// The cold import of the built main entry, against the surface it had before fuzz, e2e and lint got
// entries of their own: the main entry plus `/fuzz`, `/e2e`, `/lint` and fast-check (which fuzz
// now imports only when it runs), imported together. That baseline loads the modules the old main
// entry did (it re-exported those three, and fuzz imported fast-check), from the same build, in the
// same round.
//
// Run from packages/tool-tester, after building:  npm run build && node --import tsx bench/import-main.ts [--rounds N] [--before <dist/index.js of another build>]
//
// `--before` adds the main entry of another build (e.g. a checkout of the commit before a change,
// built) as a row, and the ratios are then taken against it: "today" in issue 21's sense.
//
// Every import is a new Node process that times its own `await import(...)` (Node's start is not
// counted); the variants run interleaved, round after round, so load from other processes on
// this shared machine hits them alike, after one uncounted round that warms the OS file cache.
// Target: the main entry at most 0.5x the baseline. A third row, informational, imports zod alone
// (the zod the main entry loads, through @opencode-ai/plugin's `tool.schema`): the floor of any
// entry that converts a tool's zod arguments, and that a tool file loads anyway.

import { spawnSync } from "node:child_process"
import { existsSync } from "node:fs"
import path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { benchArgs } from "../../../bench/_args.mjs"
import { median, ms, quantile } from "./_stats.ts"

const { values, count, fail } = benchArgs(import.meta.url, {
  rounds: { type: "string", default: "20" },
  before: { type: "string" },
})
const rounds = count("rounds")
const before = values.before === undefined ? undefined : path.resolve(values.before)
if (before !== undefined && !existsSync(before)) fail(`--before: ${before} does not exist`)
const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const entry = (file: string) => pathToFileURL(path.join(packageRoot, "dist", file)).href
if (!existsSync(path.join(packageRoot, "dist", "fuzz", "index.js"))) {
  console.error("Build first: npm run build")
  process.exit(1)
}

const variants = [
  { name: "main entry (@opencode-ai/tool-tester)", urls: [entry("index.js")] },
  {
    name: "baseline: main, /fuzz, /e2e, /lint, fast-check",
    urls: [
      entry("index.js"),
      entry("fuzz/index.js"),
      entry("e2e/index.js"),
      entry("lint/index.js"),
      import.meta.resolve("fast-check"),
    ],
  },
  ...(before === undefined
    ? []
    : [{ name: "before: the other build's main entry", urls: [pathToFileURL(before).href] }]),
  {
    name: "zod alone (informational: the floor)",
    urls: [import.meta.resolve("zod")],
  },
]

function importTime(urls: string[]): number {
  const script = `const start = performance.now()
${urls.map((url) => `await import(${JSON.stringify(url)})`).join("\n")}
process.stdout.write(String(performance.now() - start))`
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" })
  if (result.status !== 0) throw new Error(`the import failed: ${result.stderr}`)
  return Number(result.stdout)
}

const times = variants.map(() => [] as number[])
for (const variant of variants) importTime(variant.urls)
for (let round = 0; round < rounds; round++) {
  for (const [index, variant] of variants.entries()) times[index]!.push(importTime(variant.urls))
}

const baselineIndex = before === undefined ? 1 : 2
const baseline = median(times[baselineIndex]!)
console.log(`cold import, ${rounds} rounds (median, p90), Node ${process.version}`)
console.log(`ratios against: ${variants[baselineIndex]!.name}`)
for (const [index, variant] of variants.entries()) {
  const sample = times[index]!
  const ratio = median(sample) / baseline
  console.log(
    `${variant.name.padEnd(48)} ${ms(median(sample), 1).padStart(9)}  p90 ${ms(quantile(sample, 0.9), 1).padStart(9)}  ${ratio.toFixed(2)}x`,
  )
}
