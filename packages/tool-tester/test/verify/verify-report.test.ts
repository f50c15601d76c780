// verify's report from recorded checks: a difference named per behaviour with both texts, the
// --json document, and the exit codes (0 all agree, 9 something differs).
import { describe, expect, test } from "vitest"
import { printVerifyReport } from "../../src/cli/commands/verify.ts"
import { EXIT_OK, EXIT_VERIFY_DIFFERS } from "../../src/cli/exit-codes.ts"
import { BEHAVIOURS, type Check, check } from "../../src/verify/behaviours.ts"
import { formatVerifyReport, shortDiff, timingLine, verifyReport } from "../../src/verify/verify-report.ts"
import { captureIO, rawControlCharacters } from "../helpers.ts"

const opencode = { binary: "/opt/opencode/bin/opencode", version: "1.15.13" }
const agreeing: Check[] = [
  check({ behaviour: "naming", set: "naming", run: "naming", subject: "tool names" }, "a\nb", "a\nb"),
  check({ behaviour: "order", set: "naming", run: "naming", subject: "tool order" }, "a\nb", "a\nb"),
]
const schemaDifference = check(
  { behaviour: "schemas", set: "zod-types", run: "gpt-openai", subject: "schema of empty" },
  '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{}}',
  '{"type":"object","properties":{}}',
)

describe("verify's report", () => {
  test("counts the checks of every behaviour, and agrees only when every check does", () => {
    const report = verifyReport([...agreeing, schemaDifference], opencode, "1.18.34")
    expect(report.behaviours.map((entry) => entry.behaviour)).toEqual([...BEHAVIOURS])
    expect(report.behaviours.find((entry) => entry.behaviour === "schemas")).toEqual({
      behaviour: "schemas",
      agree: 0,
      differ: 1,
    })
    expect(report.behaviours.find((entry) => entry.behaviour === "naming")).toEqual({
      behaviour: "naming",
      agree: 1,
      differ: 0,
    })
    expect(report.agree).toBe(false)
    expect(report.differences).toEqual([schemaDifference])
    expect(verifyReport(agreeing, opencode, "1.18.34").agree).toBe(true)
  })

  test("names the behaviour that differs, the probe run and both texts where they part", () => {
    const text = formatVerifyReport(verifyReport([...agreeing, schemaDifference], opencode, "1.18.34"))
    expect(text).toContain("against opencode 1.15.13 (/opt/opencode/bin/opencode)")
    expect(text).toMatch(/ {2}schemas +DIFFER \(1 of 1 check\)/)
    expect(text).toMatch(/ {2}naming +agree \(1 check\)/)
    expect(text).toMatch(/ {2}truncation +not checked/)
    expect(text).toContain("  zod-types/gpt-openai: schema of empty")
    expect(text).toContain('    opencode:    {"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object"')
    expect(text).toContain('    tool-tester: {"type":"object","properties":{}…')
    expect(text).toContain("1 difference: where they are, tool-tester's predictions do not hold for opencode 1.15.13.")
  })

  test("prints at most five differences per behaviour and says how many more --json has", () => {
    const many = Array.from({ length: 7 }, (_, index) =>
      check({ behaviour: "results", set: "errors", run: "errors", subject: `call ${index + 1}` }, "x", "y"),
    )
    const text = formatVerifyReport(verifyReport(many, opencode, "1.18.34"))
    expect(text).toContain("call 5")
    expect(text).not.toContain("call 6")
    expect(text).toContain("... and 2 more (--json lists them all)")
  })

  test("says where the time went: runs, wall time, lanes, each side's median run and the hung runs' bound", () => {
    const run = { set: "s", opencodeMs: 10_000, toolTesterMs: 2_000, boundMs: 180_000, hung: false }
    const timings = {
      durationMs: 95_400,
      concurrency: 4,
      runs: [
        { ...run, run: "a" },
        { ...run, run: "b", opencodeMs: 14_000, toolTesterMs: 3_000 },
        { ...run, run: "c", opencodeMs: 31_000, toolTesterMs: 500, boundMs: 30_000, hung: true },
        { ...run, run: "d", opencodeMs: 33_000, toolTesterMs: 400, boundMs: 32_000, hung: true },
      ],
    }
    expect(timingLine(timings)).toBe(
      "4 probe runs in 95 s (4 at once, as many again for runs that may hang); a run's median: opencode 23 s, tool-tester 1.3 s; 2 stopped as hung at up to 32 s (--json: each run's timing).",
    )
    const report = verifyReport(agreeing, opencode, "1.18.34", timings)
    expect(report.timings).toEqual(timings)
    expect(formatVerifyReport(report)).toContain(`\n${timingLine(timings)}\n`)
    expect(formatVerifyReport(verifyReport(agreeing, opencode, "1.18.34"))).not.toContain("probe runs in")
    expect(timingLine({ durationMs: 4_200, concurrency: 4, runs: [{ ...run, run: "a" }] })).toMatch(
      /^1 probe run in 4\.2 s /,
    )
  })

  test("a short diff keeps the differing middle with some shared context, on one line", () => {
    const shared = "x".repeat(100)
    const [a, b] = shortDiff(`${shared}\nstatus: completed\n${shared}`, `${shared}\nstatus: error\n${shared}`)
    // 30 characters before where they part (the shared "status: " included), 30 after where they meet again.
    expect(a).toBe(`…${"x".repeat(21)}⏎status: completed⏎${"x".repeat(29)}…`)
    expect(b).toBe(`…${"x".repeat(21)}⏎status: error⏎${"x".repeat(29)}…`)
    expect(shortDiff("", "something")).toEqual(["(nothing)", "something"])
  })

  test("what a terminal would act on in either text is shown, not sent", () => {
    const [a, b] = shortDiff("output: \u001b[91mred\u001b[0m\r", "output: plain")
    expect(a).toBe("output: \\u001b[91mred\\u001b[0m\\r")
    expect(rawControlCharacters(`${a}${b}`)).toEqual([])
  })
})

describe("verify's output and exit code", () => {
  test("exit 0 and no failure line when everything agrees", () => {
    const { io, out, err } = captureIO()
    expect(printVerifyReport(io, false, verifyReport(agreeing, opencode, "1.18.34"))).toBe(EXIT_OK)
    expect(EXIT_OK).toBe(0)
    expect(out()).toContain("All agree: tool-tester's predictions hold for opencode 1.15.13.")
    expect(err()).toBe("")
  })

  test("exit 9 and a failure line naming the behaviours when something differs", () => {
    const { io, err } = captureIO()
    expect(printVerifyReport(io, false, verifyReport([...agreeing, schemaDifference], opencode, "1.18.34"))).toBe(
      EXIT_VERIFY_DIFFERS,
    )
    expect(EXIT_VERIFY_DIFFERS).toBe(9)
    expect(err()).toContain("tool-tester and opencode 1.15.13 differ in schemas: see the differences above")
    expect(err()).toContain("[VERIFY_DIFFERS]")
    // What to do: another version is the one to believe there; the modelled one is tool-tester's bug to report.
    expect(err()).toContain(
      // e2e without --script or --init is a usage error: the command pasted must run.
      "; there, trust your opencode (npx @opencode-ai/tool-tester e2e --init --opencode /opt/opencode/bin/opencode writes a script calling each of your tools and prints the command that runs it there), or use opencode 1.18.34, the version tool-tester models",
    )
    const modelled = captureIO()
    printVerifyReport(
      modelled.io,
      false,
      verifyReport([schemaDifference], { ...opencode, version: "1.18.34" }, "1.18.34"),
    )
    expect(modelled.err()).toContain(
      "; tool-tester models this very version, so that is tool-tester's bug: please report it with verify --json's differences (https://github.com/opencode-tool-kit/opencode-tool-kit/issues)",
    )
  })

  test("--json prints one document with the versions, every behaviour and every difference in full", () => {
    const { io, out, err } = captureIO()
    const exitCode = printVerifyReport(io, true, verifyReport([...agreeing, schemaDifference], opencode, "1.18.34"))
    expect(exitCode).toBe(EXIT_VERIFY_DIFFERS)
    const document = JSON.parse(out())
    expect(Object.keys(document)).toEqual([
      "opencode",
      "modelledVersion",
      "behaviours",
      "differences",
      "failedRuns",
      "agree",
    ])
    expect(document.opencode).toEqual(opencode)
    expect(document.modelledVersion).toBe("1.18.34")
    expect(document.behaviours).toHaveLength(BEHAVIOURS.length)
    expect(document.differences).toEqual([
      {
        behaviour: "schemas",
        set: "zod-types",
        run: "gpt-openai",
        subject: "schema of empty",
        agree: false,
        opencode: schemaDifference.opencode,
        toolTester: schemaDifference.toolTester,
      },
    ])
    expect(document.failedRuns).toEqual([])
    expect(document.agree).toBe(false)
    expect(JSON.parse(err().trim())).toEqual({
      error: {
        code: "VERIFY_DIFFERS",
        message: expect.stringMatching(
          /^tool-tester and opencode 1\.15\.13 differ in schemas: see the report's differences on stdout; there, trust your opencode/,
        ),
      },
    })
  })
})
