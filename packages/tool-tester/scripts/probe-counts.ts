// The probe counts docs/cli.md states, from the probe sets themselves (src/verify/probe-set.ts):
// each `<!-- probes:NAME -->N<!-- /probes -->` becomes the count NAME names, so that adding a probe
// run cannot leave the text behind. Rewritten with the option tables by `pnpm docs:cli`
// (scripts/cli-docs.ts); test/verify/probe-counts-doc.test.ts fails while docs/cli.md is stale.
import type { ProbeSet } from "../src/verify/probe-set.ts"

/** Each count docs/cli.md may state, from the probe sets. */
export const PROBE_COUNTS: Record<string, (probes: readonly ProbeSet[]) => number> = {
  /** Every probe run verify makes. */
  runs: (probes) => probes.reduce((sum, probe) => sum + probe.runs.length, 0),
  /** The runs declared `mayHang`: verify gives them lanes of their own and a bound that follows the machine. */
  "may-hang": (probes) =>
    probes.reduce((sum, probe) => sum + probe.runs.filter((run) => run.mayHang === true).length, 0),
}

/** `text` with every marked count rewritten from `probes`; a marker for no count throws. */
export function withProbeCounts(text: string, probes: readonly ProbeSet[]): string {
  return text.replace(
    /(<!-- probes:([\w-]+) -->)[^<]*(<!-- \/probes -->)/g,
    (_marked, open: string, name: string, close: string) => {
      const count = PROBE_COUNTS[name]
      if (count === undefined) throw new Error(`docs/cli.md counts probes:${name}, which is no probe count`)
      return `${open}${count(probes)}${close}`
    },
  )
}

/** The counts docs/cli.md marks, by name, with the number it states. */
export function documentedProbeCounts(text: string): Array<{ name: string; stated: string }> {
  return [...text.matchAll(/<!-- probes:([\w-]+) -->([^<]*)<!-- \/probes -->/g)].map((match) => ({
    name: match[1]!,
    stated: match[2]!,
  }))
}
