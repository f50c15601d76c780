// Why e2e says opencode ended mid-call: its own session failed, or a tool ended its process.
//
// Observed on opencode 1.18.34 (node_modules/opencode-linux-x64/bin/opencode), with the built
// `tool-tester e2e --json --timeout 90000` and a script of one call then a text turn, each tool
// in a project of its own:
// - a tool returning `{ output: "x", metadata: { f: () => 1 } }`: opencode exited 1 after the
//   title and one main request, before the call's result reached the model (no tool part in its
//   events, only `step_start` and an `error` event "The object can not be cloned."), and logged
//   `level=ERROR ... message=process ... error="The object can not be cloned." stack="structuredClone@[native code]..."`;
// - a tool returning `{ output: "x", metadata: { n: 1n } }`: the same, with "JSON.stringify cannot
//   serialize BigInt." (its stack in buildQueryFromSourceParams);
// - a tool calling `process.exit(0)`: opencode exited 0 after the same two requests, with no
//   event at all and nothing on stderr.
// Before this change e2e said "a tool that calls process.exit ends opencode itself" for all three
// (TOOL_EXITED, exit 4). The inputs below are those recordings, cut to what the explanation reads.
import { describe, expect, it } from "vitest"
import { type E2ECall, type E2EError, sessionFailure, unfinishedCalls } from "../../src/e2e/e2e-result.ts"

const call = (name: string): E2ECall => ({
  turn: 0,
  id: "call_1",
  as_called: { name, arguments: "{}" },
  as_run: null,
  result: null,
  status: null,
  title: null,
  metadata: null,
  error: null,
  input: null,
  tool: null,
})

const cloneFailure: E2EError[] = [
  { source: "event", message: "The object can not be cloned." },
  {
    source: "log",
    message:
      'level=ERROR run=dd5b2837 message=process session.id=ses_dbcfd553fffexaV213W3ippaCg messageID=msg_24302b0c4001ZSmGCjNHuFbAzo error="The object can not be cloned." stack="structuredClone@[native code]\\nrunLoop@/$bunfs/root/chunk-c6vzj92n.js:25:2045"',
  },
]

describe("a call opencode never finished", () => {
  it("quotes opencode's own error when its session failed (a metadata function), not process.exit", () => {
    const [entry, ...rest] = unfinishedCalls([call("clone_fn")], 1, cloneFailure)
    expect(rest).toEqual([])
    expect(entry!.source).toBe("exit")
    expect(entry!.message).toContain('its own session failed: "The object can not be cloned."')
    expect(entry!.message).toContain("opencode ended (exit code 1) while clone_fn was running")
    expect(entry!.message).not.toContain("a tool that calls process.exit")
  })

  it("quotes the BigInt error the same way", () => {
    const errors: E2EError[] = [{ source: "event", message: "JSON.stringify cannot serialize BigInt." }]
    const [entry] = unfinishedCalls([call("big_meta")], 1, errors)
    expect(entry!.message).toContain('its own session failed: "JSON.stringify cannot serialize BigInt."')
    expect(entry!.message).not.toContain("process.exit")
  })

  it("reads the error from the session's ERROR log line when no error event came", () => {
    expect(sessionFailure(cloneFailure.slice(1))).toBe("The object can not be cloned.")
    // A warning, or an ERROR of something other than the session, is not the session failing.
    expect(sessionFailure([{ source: "log", message: 'level=WARN message=process error="x"' }])).toBeUndefined()
    expect(
      sessionFailure([{ source: "log", message: 'level=ERROR service=plugin message=failed error="y"' }]),
    ).toBeUndefined()
  })

  it("keeps the process.exit explanation when opencode reported no error of its own", () => {
    const [entry] = unfinishedCalls([call("exit_zero")], 0, [])
    expect(entry!.message).toBe(
      "opencode ended (exit code 0) while exit_zero was running, before the model got its result; a tool that calls process.exit ends opencode itself",
    )
  })
})
