// e2e reads each call back from the next request opencode sent the mock model, in that request's
// API. The Anthropic bodies below are what opencode 1.18.34 sent with `--provider anthropic`
// (trimmed to the messages that matter): the call as a `tool_use` block of the assistant's
// content, its result as a `tool_result` block of a user message's content.
import { describe, expect, it } from "vitest"
import { collectCalls } from "../../src/e2e/e2e-result.ts"
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
