// The run-specific ids verify's observation replaces (opencode's error refs, its log's run ids),
// and only those: a tool whose id holds `err_` or `run=` is compared under its own name.
import { describe, expect, it } from "vitest"
import type { ObservedRun } from "../../src/verify/observed-run.ts"
import { withoutRunIds } from "../../src/verify/observe-run.ts"

// opencode 1.18.34 makes its refs as `err_${crypto.randomUUID().slice(0,8)}` (read in its binary)
// and logs them, and answers them in its server's error body.
const serverError = JSON.stringify({
  name: "UnknownError",
  data: { message: "Unexpected server error. Check server logs for details.", ref: "err_1a2b3c4d" },
})

const recorded = {
  toolNames: ["bash", "err_count", "get_err_log", "rerun=abc", "tail_err_deadbeef"],
  calls: [{ called: { name: "get_err_log", arguments: "{}" }, result: serverError }],
  errors: [
    { source: "log", message: 'level=ERROR run=dd5b2837 message="failed to decode session message" ref=err_9f8e7d6c' },
    { source: "stderr", message: "first line\nerr_0a0b0c0d" },
  ],
}

describe("the ids an observation replaces", () => {
  it("keeps tool ids and texts that only contain err_ or run=", () => {
    const normalised = JSON.parse(withoutRunIds(JSON.stringify(recorded))) as Pick<ObservedRun, "toolNames">
    expect(normalised.toolNames).toEqual(recorded.toolNames)
  })

  it("replaces opencode's error refs and log run ids, in text and inside JSON strings", () => {
    const normalised = JSON.parse(withoutRunIds(JSON.stringify(recorded))) as typeof recorded
    expect(JSON.parse(normalised.calls[0]!.result)).toMatchObject({ data: { ref: "err_<ref>" } })
    expect(normalised.calls[0]!.called.name).toBe("get_err_log")
    expect(normalised.errors[0]!.message).toBe(
      'level=ERROR run=<id> message="failed to decode session message" ref=err_<ref>',
    )
    expect(normalised.errors[1]!.message).toBe("first line\nerr_<ref>")
  })
})
