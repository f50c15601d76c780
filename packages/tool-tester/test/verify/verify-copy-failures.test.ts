// verify's copy-failures probe through the opencode the repository installs: a result whose
// metadata or attachments opencode cannot copy ends opencode's whole run, and tool-tester predicts
// it (TOOL_BAD_RESULT, "(no answer: opencode's run ended with ...)"), one call per run; in the
// batch run the calls beside the one that ends the run are cut off with it, on both sides.
import { expect, test } from "vitest"
import { readProbeSets } from "../../src/verify/probe-set.ts"
import { runVerify } from "../../src/verify/run-verify.ts"
import { opencode } from "../helpers.ts"

test.skipIf(!opencode.binary)(
  `each copy failure ends opencode's run as tool-tester predicts, batch included ${opencode.reason ?? ""}`,
  // Five opencode runs and a bun engine each: minutes at load average 20 on 2 cores.
  { timeout: 900_000 },
  async () => {
    const probes = readProbeSets(["copy-failures"])
    const verified = await runVerify({
      opencode: opencode.binary!,
      probes,
      engine: "bun",
      engineBinary: opencode.binary!,
    })
    expect(verified.checks.filter((entry) => !entry.agree)).toEqual([])
    expect(verified.runs.map((run) => [run.run, run.hung])).toEqual([
      ["function", false],
      ["bigint", false],
      ["cycle", false],
      ["attachment", false],
      ["batch", false],
    ])
    // Every call was compared (none skipped as unfinished), and agrees.
    const calls = verified.checks.filter((entry) => / \{\}\)$/.test(entry.subject))
    expect(calls.map((entry) => [entry.run, entry.subject, entry.behaviour, entry.agree])).toEqual([
      ["function", "call 1 (meta_function {})", "results", true],
      ["bigint", "call 1 (meta_bigint {})", "results", true],
      ["cycle", "call 1 (meta_cycle {})", "results", true],
      ["attachment", "call 1 (attachment_function {})", "results", true],
      ["batch", "call 1 (quick_ok {})", "results", true],
      ["batch", "call 2 (meta_function {})", "results", true],
      ["batch", "call 3 (wait_ok {})", "results", true],
    ])
  },
)
