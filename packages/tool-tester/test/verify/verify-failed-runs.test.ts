// verify goes on past a probe run one side of which cannot start: opencode that could not be
// spawned for one set, an engine that would not come up for another. Each is a failed run of its own
// with its reason; the other sets are still compared and reported, and verify exits 10
// (VERIFY_INCOMPLETE), not with one error and no report. Only when nothing could be compared does it
// end with that error alone. In-process: opencode's side is the recorded golden (observeRun is
// replaced), tool-tester's is the node engine; through the CLI, both sides are stand-ins.
import { readFileSync } from "node:fs"
import path from "node:path"
import { beforeEach, describe, expect, test, vi } from "vitest"
import { printVerifyReport } from "../../src/cli/commands/verify.ts"
import { EXIT_VERIFY_DIFFERS, EXIT_VERIFY_INCOMPLETE } from "../../src/cli/exit-codes.ts"
import { ToolTesterError } from "../../src/errors.ts"
import { check } from "../../src/verify/behaviours.ts"
import type { ObservedSet } from "../../src/verify/observed-run.ts"
import { readProbeSets } from "../../src/verify/probe-set.ts"
import { runVerify } from "../../src/verify/run-verify.ts"
import { formatVerifyReport, verifyReport } from "../../src/verify/verify-report.ts"
import { captureIO, jsonError, packageRoot, runCli } from "../helpers.ts"

const sides = vi.hoisted(() => ({
  /** Per set: what opencode's side throws instead of observing. */
  opencodeFails: new Map<string, () => Error>(),
  /** Per set: what tool-tester's side throws instead of replaying. */
  toolTesterFails: new Map<string, () => Error>(),
  /** tool-tester's side is one agreeing check per run instead of a replay (the CLI's bun engine is not run). */
  standIn: false,
}))

vi.mock("../../src/verify/observe-run.ts", () => ({
  observeRun: async ({ directory }: { directory: string }) => {
    const set = path.basename(directory)
    const fails = sides.opencodeFails.get(set)
    if (fails !== undefined) throw fails()
    const golden = path.join(packageRoot, "test", "golden", `${set}.json`)
    return (JSON.parse(readFileSync(golden, "utf8")) as ObservedSet).runs[0]!
  },
}))

// The CLI's check that --opencode names an opencode: this Node passes it here.
vi.mock("../../src/opencode/opencode-version-check.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../src/opencode/opencode-version-check.ts")>()),
  opencodeVersionOf: async () => "1.18.34",
}))
vi.mock("../../src/opencode/opencode-identity.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../src/opencode/opencode-identity.ts")>()),
  opencodeIdentity: async () => "opencode",
}))

vi.mock("../../src/verify/compare-run.ts", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../../src/verify/compare-run.ts")>()
  return {
    ...actual,
    compareRun: (...args: Parameters<typeof actual.compareRun>) => {
      const [probe, observed] = args
      const fails = sides.toolTesterFails.get(probe.set)
      if (fails !== undefined) return Promise.reject(fails())
      if (!sides.standIn) return actual.compareRun(...args)
      const where = { behaviour: probe.behaviour, set: probe.set, run: observed.name, subject: "the run" }
      return Promise.resolve([check(where, "same", "same")])
    },
  }
})

const spawnFailed = () =>
  new ToolTesterError(
    "OPENCODE_FAILED",
    "opencode could not start (EACCES): /opt/opencode. Check the binary, or reinstall it.",
  )
const engineFailed = () =>
  new ToolTesterError(
    "ENGINE_FAILED",
    "could not start /opt/opencode: it exited with code 1 before it was up: pass another --engine-binary, or use the node engine",
  )

const opencode = { binary: "/opt/opencode", version: "1.18.34" }

beforeEach(() => {
  sides.opencodeFails.clear()
  sides.toolTesterFails.clear()
  sides.standIn = false
})

describe("verify with a probe run that cannot start", () => {
  test("each failed run is reported with its side and reason; the others are still compared; exit 10", {
    timeout: 120_000,
  }, async () => {
    sides.opencodeFails.set("repair", spawnFailed)
    sides.toolTesterFails.set("plugins", engineFailed)
    // Something that is not a ToolTesterError (a bug, a file system error) is a failed run too.
    sides.toolTesterFails.set("errors", () => new TypeError("Cannot read properties of undefined\n    at replay"))
    const verified = await runVerify({
      opencode: opencode.binary,
      probes: readProbeSets(["repair", "naming", "plugins", "errors"]),
      engine: "node",
      concurrency: 2,
    })
    expect(verified.failed).toEqual([
      { set: "repair", run: "repair", side: "opencode", code: "OPENCODE_FAILED", message: spawnFailed().message },
      {
        set: "plugins",
        run: "plugins",
        side: "tool-tester",
        code: "ENGINE_FAILED",
        // The engine's advice names flags verify does not take: verify's own follows.
        message: `${engineFailed().message} (verify takes no --engine or --engine-binary: it runs tool-tester's side in the opencode binary's own Bun, so check that it still runs, then run this set again)`,
      },
      {
        set: "errors",
        run: "errors",
        side: "tool-tester",
        code: "INTERNAL",
        message: "Cannot read properties of undefined at replay",
      },
    ])
    // naming was compared in full, and agrees.
    expect(new Set(verified.checks.map((entry) => entry.set))).toEqual(new Set(["naming"]))
    expect(verified.checks.length).toBeGreaterThan(3)
    expect(verified.checks.filter((entry) => !entry.agree)).toEqual([])
    expect(verified.runs.map((run) => run.run)).toEqual(["repair", "naming", "plugins", "errors"])

    const { checks, failed, ...timings } = verified
    const report = verifyReport(checks, opencode, "1.18.34", timings, failed)
    expect(report.agree).toBe(false)
    const text = formatVerifyReport(report)
    expect(text).toMatch(/ {2}schemas +agree \(\d+ checks\)/)
    expect(text).toContain("not compared (a side failed to start or crashed):")
    expect(text).toContain(`  repair/repair: opencode: ${spawnFailed().message} [OPENCODE_FAILED]`)
    expect(text).toContain(`  plugins/plugins: tool-tester: ${engineFailed().message} (verify takes no --engine`)
    expect(text).toContain("then run this set again) [ENGINE_FAILED]")
    expect(text).toContain(
      "3 probe runs not compared; every check of the others agrees, but tool-tester's predictions are unchecked there.",
    )

    const { io, out, err } = captureIO()
    expect(printVerifyReport(io, true, report)).toBe(EXIT_VERIFY_INCOMPLETE)
    expect(EXIT_VERIFY_INCOMPLETE).toBe(10)
    expect(JSON.parse(out()).failedRuns).toEqual(failed)
    expect(JSON.parse(err().trim())).toEqual({
      error: {
        code: "VERIFY_INCOMPLETE",
        message:
          "3 of 4 probe runs could not be compared, a side failed to start or crashed: repair/repair (opencode: OPENCODE_FAILED), plugins/plugins (tool-tester: ENGINE_FAILED), errors/errors (tool-tester: INTERNAL); see the report's failedRuns on stdout, fix what they name, then run those sets again (npx @opencode-ai/tool-tester verify repair plugins errors --opencode /opt/opencode)",
      },
    })
  })

  test("when nothing could be compared, verify ends with the first run's error alone", async () => {
    sides.opencodeFails.set("repair", spawnFailed)
    sides.toolTesterFails.set("naming", engineFailed)
    await expect(
      runVerify({ opencode: opencode.binary, probes: readProbeSets(["repair", "naming"]), engine: "node" }),
    ).rejects.toMatchObject({ code: "OPENCODE_FAILED", message: spawnFailed().message })
  })

  test("an engine that never starts ends verify once two sets failed with it, not after every run", {
    timeout: 120_000,
  }, async () => {
    const sets = ["repair", "naming", "plugins", "errors", "zod-types", "truncation"]
    for (const set of sets) sides.toolTesterFails.set(set, engineFailed)
    const started: string[] = []
    await expect(
      runVerify({
        opencode: opencode.binary,
        probes: readProbeSets(sets),
        engine: "node",
        concurrency: 1,
        onRun: ({ last }) => started.push(last),
      }),
    ).rejects.toMatchObject({ code: "ENGINE_FAILED", message: engineFailed().message })
    // One lane: repair failed, naming failed with the same code, and no further run started.
    expect(started).toEqual(["repair/repair", "naming/naming"])
  })

  test("runs of one set failing first do not end verify: the next set is compared", async () => {
    // zod-types has four runs, all failing with one code: one set only, so verify goes on.
    sides.toolTesterFails.set("zod-types", engineFailed)
    const verified = await runVerify({
      opencode: opencode.binary,
      probes: readProbeSets(["zod-types", "naming"]),
      engine: "node",
      concurrency: 1,
    })
    expect(verified.failed.map((entry) => `${entry.set}/${entry.run}`)).toHaveLength(4)
    expect(new Set(verified.checks.map((entry) => entry.set))).toEqual(new Set(["naming"]))
  })
})

describe("verify's exit code with runs not compared", () => {
  test("through the CLI: the report on stdout lists the run not compared, and the others; exit 10", async () => {
    sides.standIn = true
    sides.opencodeFails.set("repair", spawnFailed)
    const result = await runCli(["verify", "repair", "naming", "--opencode", process.execPath, "--json"])
    expect(result.exitCode).toBe(EXIT_VERIFY_INCOMPLETE)
    const report = JSON.parse(result.stdout)
    expect(report.failedRuns).toEqual([
      { set: "repair", run: "repair", side: "opencode", code: "OPENCODE_FAILED", message: spawnFailed().message },
    ])
    expect(report.differences).toEqual([])
    expect(report.behaviours.find((entry: { behaviour: string }) => entry.behaviour === "naming")).toEqual({
      behaviour: "naming",
      agree: 1,
      differ: 0,
    })
    expect(report.agree).toBe(false)
    expect(Object.keys(report.timings)).toEqual(["runs", "durationMs", "concurrency"])
    expect(jsonError(result).code).toBe("VERIFY_INCOMPLETE")
    expect(jsonError(result).message).toMatch(/^1 of 2 probe runs could not be compared, /)
  })

  test("a difference beside a run not compared: exit 9, and the failure line names both", () => {
    const difference = check({ behaviour: "schemas", set: "zod-types", run: "gpt", subject: "schema of a" }, "x", "y")
    const failed = { set: "repair", run: "repair", side: "opencode" as const, code: "OPENCODE_FAILED", message: "m" }
    const { io, out, err } = captureIO()
    const report = verifyReport([difference], opencode, "1.18.34", undefined, [failed])
    expect(printVerifyReport(io, false, report)).toBe(EXIT_VERIFY_DIFFERS)
    expect(out()).toContain(
      "1 difference: where they are, tool-tester's predictions do not hold for opencode 1.18.34; 1 probe run not compared.",
    )
    expect(err()).toContain("tool-tester and opencode 1.18.34 differ in schemas: see the differences above;")
    expect(err()).toContain(
      ". Also 1 probe run could not be compared, a side failed to start or crashed: repair/repair (opencode: OPENCODE_FAILED); see the reasons above",
    )
    expect(err()).toContain("[VERIFY_DIFFERS]")
  })
})
