// Regenerates the conformance golden files by running each probe project (the package's `probes/`,
// format in src/verify/probe-set.ts) through the REAL opencode binary with a scripted mock model,
// as `tool-tester verify` does (src/verify/observe-run.ts). From packages/tool-tester:
//
//   node --import tsx test/conformance/generate-golden.ts [set ...] [--opencode PATH]
//
// Golden: `../golden/<set>.json` = { "set", "description", "engines" (only when probe.json has it),
// "opencodeVersion", "runs": [ObservedRun, ...] } (src/verify/observed-run.ts). A run that reached
// its `timeoutMs` (default 180 s here) is stopped, opencode's process tree included, and recorded as
// hung: its `exitCode` is null and the rest is what it had done by then. A run marked
// `cpuDependent` is left out.

import { execFileSync } from "node:child_process"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { resolveOpencode } from "../../src/opencode/opencode-binary.ts"
import { observeRun } from "../../src/verify/observe-run.ts"
import type { ObservedSet } from "../../src/verify/observed-run.ts"
import { readProbeSets } from "../../src/verify/probe-set.ts"

const goldenDirectory = fileURLToPath(new URL("../golden", import.meta.url))

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  const opencodeIndex = args.indexOf("--opencode")
  const opencodeArg = opencodeIndex === -1 ? undefined : args.splice(opencodeIndex, 2)[1]
  const opencode = await resolveOpencode(opencodeArg === undefined ? {} : { opencode: opencodeArg })
  const opencodeVersion = execFileSync(opencode, ["--version"], { encoding: "utf8" }).trim()
  for (const probe of readProbeSets(args)) {
    const runs = []
    for (const run of probe.runs) {
      // Observed on this machine's CPU only: verify compares it live wherever it runs (probe-set.ts).
      if (run.cpuDependent === true) continue
      const started = Date.now()
      process.stdout.write(`${probe.set} / ${run.name} ... `)
      runs.push(await observeRun({ directory: probe.directory, run, opencode }))
      process.stdout.write(`${((Date.now() - started) / 1000).toFixed(1)} s\n`)
    }
    const engines = probe.engines === undefined ? {} : { engines: probe.engines }
    const golden: ObservedSet = { set: probe.set, description: probe.description, ...engines, opencodeVersion, runs }
    writeFileSync(join(goldenDirectory, `${probe.set}.json`), `${JSON.stringify(golden, null, 2)}\n`)
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
