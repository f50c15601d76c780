// The probe counts docs/cli.md states come from the probe sets (scripts/probe-counts.ts): a probe
// run added or declared `mayHang` leaves the text stale until `pnpm docs:cli` rewrites it.
import { readFileSync } from "node:fs"
import { describe, expect, test } from "vitest"
import { CLI_DOCS } from "../../scripts/cli-docs.ts"
import { documentedProbeCounts, PROBE_COUNTS, withProbeCounts } from "../../scripts/probe-counts.ts"
import { readProbeSets } from "../../src/verify/probe-set.ts"

describe("docs/cli.md's probe counts", () => {
  const docs = readFileSync(CLI_DOCS, "utf8")
  const probes = readProbeSets()

  test("state the probe sets' own counts: every run, and the runs declared mayHang (else run pnpm docs:cli)", () => {
    const runs = probes.flatMap((probe) => probe.runs)
    expect(documentedProbeCounts(docs)).toEqual([
      { name: "may-hang", stated: String(runs.filter((run) => run.mayHang === true).length) },
      { name: "runs", stated: String(runs.length) },
    ])
    expect(withProbeCounts(docs, probes)).toBe(docs)
  })

  test("a stale count is rewritten from the probe sets, and a marker of no count is refused", () => {
    const hanging = probes.filter((probe) => probe.set.startsWith("plugin-client"))
    const stale = "`mayHang`: <!-- probes:may-hang -->25<!-- /probes --> runs"
    expect(withProbeCounts(stale, hanging)).toBe(
      `\`mayHang\`: <!-- probes:may-hang -->${PROBE_COUNTS["may-hang"]!(probes)}<!-- /probes --> runs`,
    )
    expect(withProbeCounts(stale, [])).toBe("`mayHang`: <!-- probes:may-hang -->0<!-- /probes --> runs")
    expect(() => withProbeCounts("<!-- probes:nope -->1<!-- /probes -->", probes)).toThrow(/no probe count/)
  })
})
