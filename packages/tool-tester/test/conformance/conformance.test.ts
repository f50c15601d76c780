// Our pipeline against what the real opencode 1.18.34 binary did with the same probe projects.
// The golden files come from `node --import tsx test/conformance/generate-golden.ts`; every run of
// every set is replayed through tool-tester by the comparison `tool-tester verify` makes
// (src/verify/compare-run.ts: tool names and order, the custom tools' schemas as sent, and for each
// call of a custom tool or of `invalid` the text the model received, the status, title and
// metadata, the saved full output of truncated results, the errors that escaped), and every check
// must agree.
import { readdirSync, readFileSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, test } from "vitest"
import { compareRun } from "../../src/verify/compare-run.ts"
import type { ObservedSet } from "../../src/verify/observed-run.ts"
import { readProbeSets } from "../../src/verify/probe-set.ts"

const here = path.dirname(fileURLToPath(import.meta.url))
const goldenDirectory = path.join(here, "..", "golden")
const goldens: ObservedSet[] = readdirSync(goldenDirectory)
  .filter((name) => name.endsWith(".json"))
  .sort()
  .map((name) => JSON.parse(readFileSync(path.join(goldenDirectory, name), "utf8")))
const probes = new Map(readProbeSets().map((probe) => [probe.set, probe]))

// Every set under both engines: the bun engine is opencode's own runtime (CI has the opencode
// binary installed for e2e), the node engine is tool-tester's loader.
const ENGINES = ["bun", "node"] as const

for (const [golden, engine] of goldens.flatMap((golden) =>
  ENGINES.filter((engine) => golden.engines?.includes(engine) ?? true).map((engine) => [golden, engine] as const),
)) {
  describe(`conformance with opencode ${golden.opencodeVersion}: ${golden.set} (${engine} engine)`, () => {
    for (const run of golden.runs) {
      // A run whose plugins call input.client starts a real opencode server: 90 s at load average
      // 20 on 2 cores, so a generous bound (the comparison's own is 240 s).
      test(`run ${run.name} matches`, { timeout: 300_000 }, async () => {
        const probe = probes.get(golden.set)
        expect(probe, `probes/${golden.set}`).toBeDefined()
        const checks = await compareRun(probe!, run, { engine, timeoutMs: 240_000 })
        expect(checks.length).toBeGreaterThan(0)
        expect(checks.filter((check) => !check.agree)).toEqual([])
      })
    }
  })
}
