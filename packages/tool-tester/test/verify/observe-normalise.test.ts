// The run-specific ids verify's observation replaces (opencode's error refs, its log's run ids),
// and only those: a tool whose id holds `err_` or `run=` is compared under its own name.
import { describe, expect, it } from "vitest"
import { normaliseObserved, withoutRunIds } from "../../src/verify/normalise-observed.ts"
import type { ObservedCall, ObservedRun } from "../../src/verify/observed-run.ts"

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

describe("an observed run's ids", () => {
  // A tool named exactly like a ref, called beside a plugin-client tool whose result holds a real one.
  const call = (name: string, result: string, metadata: Record<string, unknown>): ObservedCall => ({
    turn: 0,
    called: { name, arguments: "{}" },
    ran: { name, arguments: "{}" },
    result,
    status: "completed",
    title: name,
    metadata,
    error: null,
    input: {},
  })
  const sandbox = { project: "/s/project", home: "/s/home", data: "/s/home/data" }
  const observed: ObservedRun = {
    name: "refs",
    model: "mock-model",
    provider: "@ai-sdk/openai-compatible",
    config: null,
    git: false,
    requests: ["title", "main", "main"],
    toolNames: ["bash", "err_deadbeef", "get_err_log"],
    tools: [{ type: "function", function: { name: "err_deadbeef", description: "d", parameters: {} } }],
    calls: [
      call("err_deadbeef", "err_deadbeef ran in /s/project", { tool: "err_deadbeef" }),
      call("get_err_log", serverError, { ref: "err_1a2b3c4d" }),
    ],
    toolOutputFiles: [],
    errors: [{ source: "log", message: "level=ERROR run=dd5b2837 ref=err_9f8e7d6c tool=err_deadbeef" }],
    exitCode: 0,
  }

  it("never rewrites a tool id shaped like a ref, in the tool list, the calls or a text naming it", () => {
    const normalised = normaliseObserved(structuredClone(observed), sandbox)
    expect(normalised.toolNames).toEqual(["bash", "err_deadbeef", "get_err_log"])
    expect(normalised.tools).toEqual(observed.tools)
    expect(normalised.calls[0]).toMatchObject({
      called: { name: "err_deadbeef" },
      ran: { name: "err_deadbeef" },
      title: "err_deadbeef",
      metadata: { tool: "err_deadbeef" },
      result: "err_deadbeef ran in <directory>",
    })
  })

  it("still replaces the refs and run ids opencode wrote in results, metadata and what it printed", () => {
    const normalised = normaliseObserved(structuredClone(observed), sandbox)
    expect(JSON.parse(normalised.calls[1]!.result!)).toMatchObject({ data: { ref: "err_<ref>" } })
    expect(normalised.calls[1]!.metadata).toEqual({ ref: "err_<ref>" })
    expect(normalised.errors[0]!.message).toBe("level=ERROR run=<id> ref=err_<ref> tool=err_deadbeef")
  })
})
