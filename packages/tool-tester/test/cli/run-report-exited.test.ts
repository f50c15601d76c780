// run's human report of a call that ended its process (TOOL_EXITED): opencode itself ends there, so
// no block claims to be what the model reads; the JSON's `output` (the message) is unchanged. The
// same for the other results tool-tester makes up itself (a timeout, the engine's channel failing).
import { expect, test } from "vitest"
import { madeUpResult } from "../../src/cli/made-up-result.ts"
import { formatRun } from "../../src/cli/run-report.ts"
import type { RunJson } from "../../src/tasks/run-task.ts"

const message =
  "the tool ended its process with process.exit(3); under opencode that stops opencode itself: throw an Error instead"

/** A failed call's result, made up as run makes it up for such a call. */
const failed = (code: string, output: string): RunJson =>
  madeUpResult({ name: "exits", id: "exits", args: "{}" }, { code, message: output }, 12)

test("a call that ended its process has no 'what the model reads' block: the report says the model reads nothing", () => {
  const report = formatRun(failed("TOOL_EXITED", message), undefined, process.cwd())
  expect(report).not.toContain("what the model reads")
  expect(report).toMatch(/^output {6}none: opencode itself ends at this call, so the model reads no result$/m)
  // The message is said once, on the error line.
  expect(report.split(message)).toHaveLength(2)
  expect(report).toContain(`TOOL_EXITED  ${message}`)
})

test("a call that threw keeps the block: the model reads the message", () => {
  const report = formatRun(failed("TOOL_THREW", "boom"), undefined, process.cwd())
  expect(report).toContain("── output: what the model reads")
  expect(report).toMatch(/what the model reads ─+\nboom\n── end of output/)
})

// Their message is tool-tester's own: opencode has no per-call timeout (docs/fidelity.md) and no
// engine channel, so no model reads it there. Each says what the model would read instead.
test.each([
  [
    "TOOL_TIMEOUT",
    /^output {6}none yet: opencode sets no time limit on a custom tool's call, so it would still be waiting for this one$/m,
  ],
  [
    "CHANNEL_FORGED",
    /^output {6}unknown: the engine's answer could not be believed; opencode has no such channel, and there the model reads the tool's own result$/m,
  ],
  [
    "CHANNEL_CLOSED",
    /^output {6}unknown: no answer came back over the engine's channel; opencode has no such channel/m,
  ],
  [
    "RESULT_TOO_LARGE",
    /^output {6}unknown: the answer was larger than the engine's channel carries; opencode has no such limit/m,
  ],
])("a made-up %s result has no 'what the model reads' block either", (code, line) => {
  const made = `${code.toLowerCase()}: tool-tester's own message`
  const report = formatRun(failed(code, made), undefined, process.cwd())
  expect(report).not.toContain("what the model reads")
  expect(report).toMatch(line)
  expect(report.split(made)).toHaveLength(2)
  expect(report).toContain(`${code}  ${made}`)
})
