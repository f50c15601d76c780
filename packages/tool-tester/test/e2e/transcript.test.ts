import { describe, expect, it } from "vitest"
import { type E2EResult, stderrLines } from "../../src/e2e/e2e-result.ts"
import { formatTranscript } from "../../src/e2e/transcript.ts"

const result: E2EResult = {
  opencode: "/bin/opencode",
  model: "mock/mock-model",
  tools: [
    { type: "function", function: { name: "bash" } },
    { type: "function", function: { name: "echo" } },
  ],
  requests: [],
  calls: [
    {
      turn: 0,
      id: "call_1",
      as_called: { name: "ECHO", arguments: '{"message":"hi"}' },
      as_run: { name: "echo", arguments: '{"message":"hi"}' },
      result: "one\ntwo\nthree",
      status: "completed",
      title: "echo hi",
      metadata: { truncated: false },
      error: null,
      input: { message: "hi" },
      tool: "echo",
    },
    {
      turn: 1,
      id: "call_2",
      as_called: { name: "nope", arguments: "{}" },
      as_run: { name: "invalid", arguments: '{"tool":"nope","error":"unavailable"}' },
      result: "The arguments provided to the tool are invalid: unavailable",
      status: "completed",
      title: "Invalid Tool",
      metadata: { truncated: false },
      error: null,
      input: {},
      tool: "invalid",
    },
  ],
  events: [{ type: "text", part: { type: "text", text: "all done" } }],
  toolOutputFiles: [{ name: "tool_abc", bytes: 12 }],
  errors: [{ source: "event", message: "Unexpected server error." }],
  exitCode: 0,
  durationMs: 4200,
  sandbox: { project: "/tmp/p", home: "/tmp/h", data: "/tmp/h/.local/share" },
}

describe("stderrLines", () => {
  it("drops the colours opencode gives its own warnings off a terminal, so no escape is shown", () => {
    const stderr = '\u001b[93m\u001b[1m! \u001b[0m agent "nosuch" not found. Falling back to default agent\n'
    expect(stderrLines(stderr)).toEqual([
      { source: "stderr", message: '!  agent "nosuch" not found. Falling back to default agent' },
    ])
  })
})

describe("formatTranscript", () => {
  it("shows each turn's calls, how opencode ran them and what the model read back", () => {
    expect(formatTranscript(result, { maxResultLines: 2 })).toBe(
      [
        "opencode e2e run with mock/mock-model (exit 0, 0 model requests, 4.2 s)",
        "Tools offered: bash, echo",
        "",
        "Turn 1",
        '  → ECHO {"message":"hi"}',
        "    repaired to echo",
        '    completed · title "echo hi" · metadata {"truncated":false}',
        "    │ one",
        "    │ two",
        "    │ … 1 more line",
        "",
        "Turn 2",
        "  → nope {}",
        '    rerouted to invalid {"tool":"nope","error":"unavailable"}',
        '    completed · title "Invalid Tool" · metadata {"truncated":false}',
        "    │ The arguments provided to the tool are invalid: unavailable",
        "",
        "Model text",
        "  all done",
        "",
        "Tool output files",
        "  tool_abc (12 bytes)",
        "",
        "opencode errors",
        "  [event] Unexpected server error.",
        "",
      ].join("\n"),
    )
  })

  it("names the tools of every API: Anthropic's by name, Google's from their functionDeclarations", () => {
    const lines = (tools: unknown[]) => formatTranscript({ ...result, tools }).split("\n")[1]
    expect(
      lines([
        { name: "bash", input_schema: {} },
        { name: "echo", input_schema: {} },
      ]),
    ).toBe("Tools offered: bash, echo")
    expect(lines([{ functionDeclarations: [{ name: "bash" }, { name: "echo" }] }])).toBe("Tools offered: bash, echo")
  })

  it("names a program that is not opencode by its path, not as opencode with the version it printed", () => {
    const node = {
      ...result,
      opencode: "/usr/bin/node",
      opencodeVersion: null,
      notOpencode: "its --help lists no `opencode run`",
    }
    expect(formatTranscript(node).split("\n")[0]).toBe(
      "/usr/bin/node (not opencode: its --help lists no `opencode run`) e2e run with mock/mock-model (exit 0, 0 model requests, 4.2 s)",
    )
  })

  it("adds no escape codes unless colour is asked for", () => {
    expect(formatTranscript(result)).not.toContain("\u001b[")
  })

  it("shows what tools and the model wrote with control characters escaped, so it cannot drive the terminal", () => {
    const hostile = "\u001b[?1049h\u001b[?25lgone\u202e"
    const call = {
      ...result.calls[0]!,
      result: hostile,
      title: hostile,
      as_called: { name: hostile, arguments: hostile },
    }
    const text = formatTranscript({
      ...result,
      calls: [call],
      events: [{ part: { type: "text", text: hostile } }],
      errors: [{ source: "stderr", message: hostile }],
    })
    expect(text.includes("\u001b")).toBe(false)
    expect(text.includes("\u202e")).toBe(false)
    expect(text).toContain("\\u001b[?1049h\\u001b[?25lgone\\u202e")
  })
})

it("formatTranscript refuses what is not a run's result with USAGE, not a TypeError", () => {
  const refused = expect.objectContaining({ code: "USAGE", data: { option: "result" } })
  // An un-awaited runE2E(), or the wrong object.
  expect(() => formatTranscript({} as never)).toThrow(refused)
  expect(() => formatTranscript(Promise.resolve(result) as never)).toThrow(refused)
})
