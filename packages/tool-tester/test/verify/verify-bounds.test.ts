// verify's bound of a run that may hang, end to end through the opencode the repository installs:
// a plugin that hangs opencode at init (plugin-client-init's config.get) is stopped once it has
// waited twice as long as the run that ended on its own (naming), not at a fixed bound, is recorded
// as hung, and agrees with tool-tester; it has a lane of its own, so both run at concurrency 1.
import { expect, test } from "vitest"
import { readProbeSets } from "../../src/verify/probe-set.ts"
import { runVerify } from "../../src/verify/run-verify.ts"
import { opencode } from "../helpers.ts"

test.skipIf(!opencode.binary)(
  `a run that may hang is stopped at twice the measured run, recorded as hung, and agrees ${opencode.reason ?? ""}`,
  // Two opencode runs, one waiting for the other's measure: minutes at load average 20 on 2 cores.
  { timeout: 900_000 },
  async () => {
    const [naming, init] = readProbeSets(["naming", "plugin-client-init"])
    const hanging = { ...init!, runs: init!.runs.filter((run) => run.name === "config.get") }
    expect(hanging.runs).toHaveLength(1)
    expect(hanging.runs[0]!.mayHang).toBe(true)
    const verified = await runVerify({
      opencode: opencode.binary!,
      probes: [naming!, hanging],
      concurrency: 1,
      // The floor out of the way, so the bound is the measured one; the unmeasured bound far enough
      // that naming has ended before config.get could reach it.
      bounds: { floorMs: 1_000, factor: 2, unmeasuredMs: 600_000 },
    })
    expect(verified.checks.filter((entry) => !entry.agree)).toEqual([])
    const [measured, hung] = verified.runs
    expect(measured).toMatchObject({ set: "naming", run: "naming", hung: false })
    expect(hung).toMatchObject({ set: "plugin-client-init", run: "config.get", hung: true })
    // Twice the measured run (recorded unrounded, so within a millisecond of twice the rounded one).
    expect(Math.abs(hung!.boundMs - 2 * measured!.opencodeMs)).toBeLessThanOrEqual(2)
    // Stopped only once that bound had passed.
    expect(hung!.opencodeMs).toBeGreaterThanOrEqual(hung!.boundMs)
    expect(verified.concurrency).toBe(1)
  },
)
