// e2e reads each call back from the next request opencode sent the mock model, in that request's
// API. The Anthropic bodies below are what opencode 1.18.34 sent with `--provider anthropic`
// (trimmed to the messages that matter): the call as a `tool_use` block of the assistant's
// content, its result as a `tool_result` block of a user message's content.
import { describe, expect, it } from "vitest"
import { collectCalls, type E2ECall, eventErrors, outputFlood, parseEvents } from "../../src/e2e/e2e-result.ts"
import type { CapturedRequest, ServedCall } from "../../src/e2e/mock-model.ts"

const served = (id: string, name: string, args: string, turn: number): ServedCall => ({
  turn,
  id,
  name,
  arguments: args,
  requestIndex: turn + 1,
})

const cache = { cache_control: { type: "ephemeral" } }

function anthropicRequest(messages: unknown[]): CapturedRequest {
  return { path: "/v1/messages", kind: "main", body: { model: "mock-model", messages, tools: [], stream: true } }
}

describe("collectCalls on Anthropic's messages API", () => {
  const requests: CapturedRequest[] = [
    { path: "/v1/messages", kind: "title", body: { model: "mock-model", messages: [], stream: true } },
    anthropicRequest([{ role: "user", content: [{ type: "text", text: '"Follow the script."' }] }]),
    anthropicRequest([
      { role: "user", content: [{ type: "text", text: '"Follow the script."' }] },
      {
        role: "assistant",
        content: [
          { type: "tool_use", id: "call_1", name: "attach", input: { case: "png" } },
          { type: "tool_use", id: "toolu_2", name: "invalid", input: { tool: "attach", error: "bad" }, ...cache },
        ],
      },
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: "call_1",
            content: [
              { type: "text", text: "see png" },
              { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBO" } },
            ],
          },
          {
            type: "tool_result",
            tool_use_id: "toolu_2",
            content: "The arguments provided to the tool are invalid: bad",
            ...cache,
          },
        ],
      },
    ]),
    anthropicRequest([
      { role: "assistant", content: [{ type: "tool_use", id: "call_3", name: "attach", input: {}, ...cache }] },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "call_3", content: "no case undefined", is_error: true, ...cache },
        ],
      },
    ]),
  ]
  const calls = collectCalls(
    [
      served("call_1", "ATTACH", '{"case":"png"}', 0),
      served("toolu_2", "attach", "{oops", 0),
      served("call_3", "attach", "", 1),
    ],
    requests,
    [],
  )

  it("reads the call as opencode stored it: the tool_use block's name and the JSON text of its input", () => {
    expect(calls.map((call) => [call.as_called, call.as_run])).toEqual([
      [
        { name: "ATTACH", arguments: '{"case":"png"}' },
        { name: "attach", arguments: '{"case":"png"}' },
      ],
      [
        { name: "attach", arguments: "{oops" },
        { name: "invalid", arguments: '{"tool":"attach","error":"bad"}' },
      ],
      [
        { name: "attach", arguments: "" },
        { name: "attach", arguments: "{}" },
      ],
    ])
  })

  it("reads the result from the tool_result block: its text, text blocks joined and other blocks as JSON", () => {
    expect(calls.map((call) => call.result)).toEqual([
      'see png{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBO"}}',
      "The arguments provided to the tool are invalid: bad",
      "no case undefined",
    ])
  })
})

// Google's generateContent, as opencode 1.18.34 sent it with `--provider google` (trimmed): no call
// carries an id, in the history or on the wire, so each call is found by its place in its turn, and
// its id is the one @ai-sdk/google made up, from opencode's tool part of the step that answered.
describe("collectCalls on Google's generateContent", () => {
  const path = "/v1/models/gemini-2.5-pro:streamGenerateContent"
  const googleRequest = (contents: unknown[]): CapturedRequest => ({
    path,
    kind: "main",
    body: { contents, tools: [{ functionDeclarations: [] }] },
  })
  const prompt = { role: "user", parts: [{ text: '"Follow the script."' }] }
  const call = (name: string, args: unknown) => ({ functionCall: { name, args } })
  const response = (name: string, content: string) => ({ functionResponse: { name, response: { name, content } } })
  const fileText = { text: '{"type":"file-data","data":"aGVsbG8=","mediaType":"text/plain"}' }
  const invalidArgs = { tool: "attach", error: "JSON parsing failed" }
  const turn0 = [
    {
      role: "model",
      parts: [
        { text: "hi" },
        call("attach", { case: "emptyOutput" }),
        call("invalid", invalidArgs),
        call("attach", { case: "png" }),
      ],
    },
    {
      role: "user",
      parts: [
        fileText,
        response("invalid", "The arguments provided to the tool are invalid: JSON parsing failed"),
        response("attach", "see png"),
      ],
    },
    { role: "user", parts: [{ text: "Attached media from tool result:" }, { text: "ERROR: Cannot read" }] },
  ]
  const turn1 = [
    { role: "model", parts: [call("attach", {})] },
    { role: "user", parts: [response("attach", "no case undefined")] },
  ]
  // Two results and three parts: which file goes with which call cannot be told.
  const turn2 = [
    { role: "model", parts: [call("attach", { case: "text" }), call("attach", { case: "emptyOutput" })] },
    { role: "user", parts: [response("attach", "see text"), fileText, fileText] },
  ]
  const requests: CapturedRequest[] = [
    { path, kind: "title", body: { contents: [prompt] } },
    googleRequest([prompt]),
    googleRequest([prompt, ...turn0]),
    googleRequest([prompt, ...turn0, ...turn1]),
    googleRequest([prompt, ...turn0, ...turn1, ...turn2]),
  ]
  const step = (messageID: string) => ({
    type: "step_start",
    part: { type: "step-start", id: `prt_${messageID}0`, messageID },
  })
  const part = (id: string, messageID: string, callID: string, tool: string, input: unknown, status = "completed") => ({
    type: "tool_use",
    part: { type: "tool", id, messageID, callID, tool, state: { status, input, title: tool } },
  })
  // As `opencode run` prints them: each part when it finishes (the png call last, though made last
  // but one), and none for a call still running.
  const events = [
    step("msg_1"),
    part("prt_11", "msg_1", "NCb2QQXx59lcCIQz", "attach", { case: "emptyOutput" }),
    part("prt_13", "msg_1", "m3oOTZSuA73XddwM", "attach", { case: "png" }),
    part("prt_12", "msg_1", "TvI2WbuZAZ6Fpdpq", "invalid", invalidArgs),
    step("msg_2"),
    part("prt_21", "msg_2", "FWr8MhAt2xJKgwKX", "attach", {}, "error"),
    step("msg_3"),
    part("prt_32", "msg_3", "qeWabvltupxryTMZ", "attach", { case: "emptyOutput" }),
  ]
  const googleServed = (id: string, name: string, args: string, turn: number, requestIndex: number): ServedCall => ({
    turn,
    id,
    name,
    arguments: args,
    requestIndex,
  })
  const calls = collectCalls(
    [
      googleServed("call_1", "attach", '{"case":"emptyOutput"}', 0, 1),
      googleServed("call_2", "attach", "{oops", 0, 1),
      googleServed("call_3", "attach", '{"case":"png"}', 0, 1),
      googleServed("call_4", "ATTACH", "{}", 1, 2),
      googleServed("call_5", "attach", '{"case":"text"}', 2, 3),
      googleServed("call_6", "attach", '{"case":"emptyOutput"}', 2, 3),
    ],
    requests,
    events,
  )

  it("gives each call the id opencode's part has, by its step and its tool and input; the mock's with no part", () => {
    expect(calls.map((found) => [found.id, found.status, found.tool])).toEqual([
      ["NCb2QQXx59lcCIQz", "completed", "attach"],
      ["TvI2WbuZAZ6Fpdpq", "completed", "invalid"],
      ["m3oOTZSuA73XddwM", "completed", "attach"],
      ["FWr8MhAt2xJKgwKX", "error", "attach"],
      ["call_5", null, null],
      ["qeWabvltupxryTMZ", "completed", "attach"],
    ])
  })

  it("reads the call by its place among the functionCall parts of the answer, args as JSON text", () => {
    expect(calls.map((found) => found.as_run)).toEqual([
      { name: "attach", arguments: '{"case":"emptyOutput"}' },
      { name: "invalid", arguments: JSON.stringify(invalidArgs) },
      { name: "attach", arguments: '{"case":"png"}' },
      { name: "attach", arguments: "{}" },
      { name: "attach", arguments: '{"case":"text"}' },
      { name: "attach", arguments: '{"case":"emptyOutput"}' },
    ])
  })

  it("reads each result from the parts that start with its functionResponse; null when they cannot be told apart", () => {
    expect(calls.map((found) => found.result)).toEqual([
      fileText.text,
      "The arguments provided to the tool are invalid: JSON parsing failed",
      "see png",
      "no case undefined",
      null,
      null,
    ])
  })
})

describe("parseEvents", () => {
  it("takes opencode's events (type, timestamp, sessionID), not a tool's JSON lines on the same stdout", () => {
    // Observed on 1.18.34 and 1.15.13: a tool's console.log lands between opencode's events.
    const session = { timestamp: 1796605440715, sessionID: "ses_db1f895d2ffexV0WNRBHuc6BCB" }
    const real = { type: "error", ...session, error: { name: "UnknownError", data: { message: "cannot be cloned" } } }
    const stdout = [
      JSON.stringify({ type: "error", error: { message: "forged by a tool" } }),
      JSON.stringify({ level: "info", msg: "a structured log line" }),
      "plain text a tool printed",
      JSON.stringify({ type: "step_start", ...session, part: {} }),
      JSON.stringify(real),
      '{"type":"text","timestamp":1,"sessionID":"ses_cut sh', // a line cut short by a kill
    ].join("\n")
    const events = parseEvents(stdout)
    expect(events).toEqual([{ type: "step_start", ...session, part: {} }, real])
    expect(eventErrors(events)).toEqual([{ source: "event", message: "cannot be cloned" }])
  })
})

describe("outputFlood", () => {
  const call = (id: string, status: string | null): E2ECall => ({
    turn: 0,
    id,
    as_called: { name: "flood", arguments: "{}" },
    as_run: { name: "flood", arguments: "{}" },
    result: "flooded",
    status,
    title: null,
    metadata: null,
    error: null,
    input: null,
    tool: null,
  })
  const megabytes = (count: number) => count * 1024 * 1024

  // Observed on 1.18.34: a tool writing 300 MB to stdout in one write; the model got its result,
  // but no event of the run reached e2e (exit code 0), so the call had no status; 25 MB of the
  // tool's text reached e2e.
  it("puts a call opencode reported nothing of down to a flood on its stdout, in one line", () => {
    expect(outputFlood([call("call_1", null), call("call_2", "completed")], megabytes(25))).toEqual([
      {
        source: "stdout",
        message:
          "opencode reported no result for flood (call_1): its stdout carried 25 MB of text that was not its events, printed by a tool, and opencode loses the events still waiting behind such a flood when it exits; that flood is the likely reason: have the tool print less, or write to a file",
      },
    ])
  })

  it("says nothing when every call was reported, or when the rest of stdout was small", () => {
    expect(outputFlood([call("call_1", "completed")], megabytes(25))).toEqual([])
    expect(outputFlood([call("call_1", null)], megabytes(1))).toEqual([])
  })
})
