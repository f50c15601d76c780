// e2e's mock model speaks the OpenAI chat-completions and responses APIs, Anthropic's messages API,
// Google's generateContent, Bedrock's Converse, the AI Gateway's language model and Cohere's chat
// (docs/cli.md#e2e). A provider of another API (a package of the user's own, loaded from a file
// URL) sends opencode's requests to a route the mock does not answer: a usage error naming the
// route, where it was OPENCODE_FAILED with "Not Found" from opencode's log. A provider that parses
// the chat-completions stream strictly (@ai-sdk/mistral) runs the script; @ai-sdk/anthropic,
// @ai-sdk/google, @ai-sdk/amazon-bedrock, @ai-sdk/gateway and @ai-sdk/cohere run every kind of
// scripted call they can send, read back from their requests; a call one cannot send is a usage
// error before anything runs.
import { fileURLToPath } from "node:url"
import { afterAll, expect, test } from "vitest"
import { runE2E } from "../../src/e2e/run-e2e.ts"
import { ToolTesterError } from "../../src/errors.ts"
import { leftoverFolders, makeTempParent } from "./leftovers.ts"

const project = fileURLToPath(new URL("../fixtures/e2e-round-trip", import.meta.url))
const tempParent = makeTempParent()
afterAll(() => tempParent.remove())
const script = { turns: [{ calls: [{ tool: "echo", args: { message: "hi" } }] }, { text: "done" }] }

test("a provider of another API (a package's own /v1/generate) is USAGE naming the route it was sent to", {
  timeout: 240_000,
}, async () => {
  const provider = new URL("../fixtures/other-api-provider/provider.mjs", import.meta.url).href
  const error = await rejection(
    runE2E({ directory: project, script, provider, tempDirectory: tempParent.path, timeoutMs: 180_000 }),
  )
  expect(error.code).toBe("USAGE")
  expect(error.message).toContain(
    `opencode sent the model's requests for ${provider} to POST /v1/generate, an API e2e's mock model does not speak`,
  )
  expect(leftoverFolders(tempParent.path)).toEqual([])
})

test("@ai-sdk/mistral, which wants a choice in every chunk, runs the script's call", { timeout: 240_000 }, async () => {
  const result = await runE2E({
    directory: project,
    script,
    provider: "@ai-sdk/mistral",
    tempDirectory: tempParent.path,
    timeoutMs: 180_000,
  })
  expect(result.exitCode).toBe(0)
  expect(result.calls.map((call) => [call.as_called.name, call.status])).toEqual([["echo", "completed"]])
})

// The APIs whose calls carry an id and whose history holds a call's input as a JSON value.
const withIds = [
  {
    provider: "@ai-sdk/anthropic",
    route: "/v1/messages",
    // Anthropic's tools: name, description and input_schema.
    offered: (tools: unknown[] | null) => tools?.map((tool) => (tool as { name: string }).name),
  },
  {
    provider: "@ai-sdk/amazon-bedrock",
    route: "/v1/model/mock-model/converse-stream",
    // The small model's id of its own, in the path: how the mock tells the title request.
    titleRoute: "/v1/model/mock-model-title/converse-stream",
    // Bedrock's: toolConfig.tools, each a toolSpec.
    offered: (tools: unknown[] | null) => tools?.map((tool) => (tool as { toolSpec: { name: string } }).toolSpec.name),
  },
  {
    // Claude on Vertex AI: Anthropic's messages, posted to the model's raw predict after a sign-in.
    provider: "@ai-sdk/google-vertex/anthropic",
    route: "/v1/mock-model:streamRawPredict",
    titleRoute: "/v1/mock-model-title:streamRawPredict",
    offered: (tools: unknown[] | null) => tools?.map((tool) => (tool as { name: string }).name),
  },
  {
    // The AI Gateway: the AI SDK's own call options, the model in a header.
    provider: "@ai-sdk/gateway",
    route: "/v1/language-model",
    // The AI SDK's function tools: type, name, description and inputSchema.
    offered: (tools: unknown[] | null) => tools?.map((tool) => (tool as { name: string }).name),
  },
  {
    // Cohere's chat: its history is chat completions' shape, each call's arguments parsed and
    // written again, so text that is no JSON fails its stream (a usage error, tested below): the
    // call rerouted to invalid names a tool that does not exist.
    provider: "@ai-sdk/cohere",
    route: "/v1/chat",
    invalidCall: { tool: "no_such_tool", args: { message: "four" } },
    invalidResult: "Model tried to call unavailable tool 'no_such_tool'",
    // Cohere's tools: chat completions' function tools.
    offered: (tools: unknown[] | null) => tools?.map((tool) => (tool as { function: { name: string } }).function.name),
  },
]

test.for(withIds)(
  "$provider runs parallel calls, a custom id, a repaired name, an invalid reroute and text",
  {
    timeout: 240_000,
  },
  async ({
    provider,
    route,
    titleRoute = route,
    offered,
    invalidCall = { tool: "echo", rawArgs: "{not json" },
    invalidResult = "The arguments provided to the tool are invalid",
  }) => {
    const result = await runE2E({
      directory: project,
      script: {
        turns: [
          {
            text: "on it",
            calls: [
              { tool: "echo", args: { message: "one" } },
              { tool: "echo", args: { message: "two" }, id: "custom_id" },
            ],
          },
          { calls: [{ tool: "ECHO", args: { message: "three" } }] },
          { calls: [invalidCall] },
          { text: "done" },
        ],
      },
      provider,
      tempDirectory: tempParent.path,
      timeoutMs: 180_000,
    })
    expect(result.exitCode).toBe(0)
    expect(result.errors).toEqual([])
    expect(result.requests.map((request) => [request.path, request.kind])).toEqual([
      [titleRoute, "title"],
      ...Array.from({ length: 4 }, () => [route, "main"]),
    ])
    expect(offered(result.tools)).toContain("echo")
    expect(
      result.calls.map((call) => [
        call.turn,
        call.id,
        call.as_called.name,
        call.as_run?.name,
        call.status,
        call.result,
      ]),
    ).toEqual([
      [0, "call_1", "echo", "echo", "completed", "echo: one (call call_1)"],
      [0, "custom_id", "echo", "echo", "completed", "echo: two (call custom_id)"],
      [1, "call_2", "ECHO", "echo", "completed", "echo: three (call call_2)"],
      [2, "call_3", invalidCall.tool, "invalid", "completed", expect.stringContaining(invalidResult)],
    ])
    // A call's input is a JSON value in opencode's history: its JSON text.
    expect(result.calls[0]?.as_run?.arguments).toBe('{"message":"one"}')
    const texts = result.events.map((event) => (event as { part?: { text?: string } }).part?.text)
    expect(texts).toContain("on it")
    expect(texts).toContain("done")
    expect(leftoverFolders(tempParent.path)).toEqual([])
  },
)

test("@ai-sdk/amazon-bedrock with a Mistral model: the call's id cut to 9 letters and digits, as opencode knows it", {
  timeout: 240_000,
}, async () => {
  const result = await runE2E({
    directory: project,
    script: {
      turns: [{ calls: [{ tool: "echo", args: { message: "hi" }, id: "call_abc-123_def" }] }, { text: "done" }],
    },
    provider: "@ai-sdk/amazon-bedrock",
    model: "mistral.mistral-large-x",
    tempDirectory: tempParent.path,
    timeoutMs: 180_000,
  })
  expect(result.exitCode).toBe(0)
  expect(result.errors).toEqual([])
  // The tool's context.callID is the cut id too.
  expect(result.calls.map((call) => [call.id, call.as_run?.name, call.status, call.result])).toEqual([
    ["callabc12", "echo", "completed", "echo: hi (call callabc12)"],
  ])
  expect(leftoverFolders(tempParent.path)).toEqual([])
})

test("@ai-sdk/google runs parallel calls, a repaired name, arguments that are no JSON object, and text", {
  timeout: 240_000,
}, async () => {
  const result = await runE2E({
    directory: project,
    script: {
      turns: [
        {
          text: "on it",
          calls: [
            { tool: "echo", args: { message: "one" } },
            { tool: "echo", rawArgs: '{ "message" : "two" }' },
          ],
        },
        { calls: [{ tool: "ECHO", args: { message: "three" } }] },
        { calls: [{ tool: "echo", rawArgs: "{not json" }] },
        { text: "done" },
      ],
    },
    provider: "@ai-sdk/google",
    model: "gemini-2.5-pro",
    tempDirectory: tempParent.path,
    timeoutMs: 180_000,
  })
  expect(result.exitCode).toBe(0)
  expect(result.errors).toEqual([])
  expect(result.requests.map((request) => [request.path, request.kind])).toEqual([
    ["/v1/models/gemini-2.5-pro-title:streamGenerateContent", "title"],
    ...Array.from({ length: 4 }, () => ["/v1/models/gemini-2.5-pro:streamGenerateContent", "main"]),
  ])
  // Google's tools: one entry of functionDeclarations.
  expect(result.tools).toEqual([
    { functionDeclarations: expect.arrayContaining([expect.objectContaining({ name: "echo" })]) },
  ])
  // No id on the wire: each call's id is the one @ai-sdk/google made up, the tool's context.callID.
  const ids = result.calls.map((call) => call.id)
  for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9]{16}$/)
  expect(new Set(ids).size).toBe(4)
  expect(
    result.calls.map((call) => [call.turn, call.as_called.name, call.as_run?.name, call.status, call.result]),
  ).toEqual([
    [0, "echo", "echo", "completed", `echo: one (call ${ids[0]})`],
    [0, "echo", "echo", "completed", `echo: two (call ${ids[1]})`],
    [1, "ECHO", "echo", "completed", `echo: three (call ${ids[2]})`],
    [2, "echo", "invalid", "completed", expect.stringContaining("The arguments provided to the tool are invalid")],
  ])
  // The object the argument text was sent as, written back as JSON; text that is none as it is.
  expect(result.calls.map((call) => call.as_called.arguments)).toEqual([
    '{"message":"one"}',
    '{"message":"two"}',
    '{"message":"three"}',
    "{not json",
  ])
  expect(result.calls[1]?.as_run?.arguments).toBe('{"message":"two"}')
  expect(result.events.some((event) => (event as { part?: { text?: string } }).part?.text === "done")).toBe(true)
  expect(leftoverFolders(tempParent.path)).toEqual([])
})

test("@ai-sdk/google-vertex speaks the same API: its call runs and is read back", { timeout: 240_000 }, async () => {
  const result = await runE2E({
    directory: project,
    script,
    provider: "@ai-sdk/google-vertex",
    tempDirectory: tempParent.path,
    timeoutMs: 180_000,
  })
  expect(result.exitCode).toBe(0)
  expect(result.requests.map((request) => request.path)).toContain("/v1/models/mock-model:streamGenerateContent")
  const [call] = result.calls
  expect([call?.status, call?.as_run?.name, call?.result]).toEqual(["completed", "echo", `echo: hi (call ${call?.id})`])
})

// Script features a provider's API cannot send: refused before anything runs, in one line.
test.for([
  {
    provider: "@ai-sdk/google",
    turns: [
      {
        calls: [
          { tool: "echo", args: {} },
          { tool: "echo", args: {}, id: "mine" },
        ],
      },
    ],
    message:
      "The e2e script cannot be played as @ai-sdk/google: turns[0].calls[1] gives an `id`, which Google's API cannot send: its function calls carry no id, and @ai-sdk/google makes one up (e2e reports it as the call's id). Leave the call's `id` out, or pick another --provider.",
  },
  {
    // Cohere's package parses each call's arguments as they stream: empty text and JSON that is no
    // object pass, text that is no JSON is refused.
    provider: "@ai-sdk/cohere",
    turns: [
      { calls: [{ tool: "echo", rawArgs: "" }] },
      { calls: [{ tool: "echo", rawArgs: '{"message":"x"}' }] },
      {
        calls: [
          { tool: "echo", rawArgs: "[1]" },
          { tool: "echo", rawArgs: "{not json" },
        ],
      },
    ],
    message:
      "The e2e script cannot be played as @ai-sdk/cohere: turns[2].calls[1] has `rawArgs` that are no JSON, which @ai-sdk/cohere cannot pass on: it parses each call's arguments as they stream and fails opencode's run (\"JSON Parse error\") before opencode gets the call, so opencode's rerouting to `invalid` never happens with Cohere. Give JSON text, or pick another --provider.",
  },
])("what $provider's API cannot send is USAGE before anything runs", async ({ provider, turns, message }) => {
  const error = await rejection(
    runE2E({ directory: project, script: { turns }, provider, tempDirectory: tempParent.path }),
  )
  expect(error.code).toBe("USAGE")
  expect(error.message).toBe(message)
  expect(leftoverFolders(tempParent.path)).toEqual([])
})

/** The ToolTesterError `promise` rejects with (any other outcome fails the test). */
async function rejection(promise: Promise<unknown>): Promise<ToolTesterError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  )
  if (!ToolTesterError.isInstance(error)) throw new Error(`expected a ToolTesterError, got ${String(error)}`)
  return error
}
