// Run by verify-quiet-stderr.test.ts in a process of its own (node --import tsx): compareRun on
// each recorded escaped-errors run, with the bun engine given as argv[2]. Prints how many runs
// agreed on stdout; what the probes' engines print would reach this process's stderr if inherited.
import { readFileSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { compareRun } from "../../src/verify/compare-run.ts"
import type { ObservedSet } from "../../src/verify/observed-run.ts"
import { readProbeSets } from "../../src/verify/probe-set.ts"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..")
const recorded = JSON.parse(
  readFileSync(path.join(root, "test", "golden", "escaped-errors.json"), "utf8"),
) as ObservedSet
const probe = readProbeSets(["escaped-errors"])[0]!
let agreed = 0
for (const run of recorded.runs) {
  const checks = await compareRun(probe, run, { engine: "bun", engineBinary: process.argv[2]! })
  if (checks.every((check) => check.agree)) agreed++
}
process.stdout.write(`${agreed} of ${recorded.runs.length}\n`)
