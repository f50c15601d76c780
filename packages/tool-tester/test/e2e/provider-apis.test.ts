// e2e's mock model speaks the OpenAI chat-completions and responses APIs and Anthropic's messages
// API (docs/cli.md#e2e). A provider of another API sends opencode's requests to a route the mock
// does not answer: a usage error naming the route, where it was OPENCODE_FAILED with "Not Found"
// from opencode's log. A provider that parses the chat-completions stream strictly (@ai-sdk/mistral)
// runs the script; @ai-sdk/anthropic runs every kind of scripted call, read back from its messages.
import { fileURLToPath } from "node:url"
import { afterAll, expect, test } from "vitest"
import { runE2E } from "../../src/e2e/run-e2e.ts"
import { ToolTesterError } from "../../src/errors.ts"
import { leftoverFolders, makeTempParent } from "./leftovers.ts"

const project = fileURLToPath(new URL("../fixtures/e2e-round-trip", import.meta.url))
const tempParent = makeTempParent()
afterAll(() => tempParent.remove())
const script = { turns: [{ calls: [{ tool: "echo", args: { message: "hi" } }] }, { text: "done" }] }

test("a provider of another API (google's :streamGenerateContent) is USAGE naming the route it was sent to", {
  timeout: 240_000,
}, async () => {
  const error = await runE2E({
    directory: project,
    script,
    provider: "@ai-sdk/google",
    tempDirectory: tempParent.path,
    timeoutMs: 180_000,
  }).then(
    () => undefined,
    (caught: unknown) => caught,
  )
  if (!ToolTesterError.isInstance(error)) throw new Error(`expected a ToolTesterError, got ${String(error)}`)
  expect(error.code).toBe("USAGE")
  expect(error.message).toContain(
    "opencode sent the model's requests for @ai-sdk/google to POST /v1/models/mock-model:streamGenerateContent, an API e2e's mock model does not speak",
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

test("@ai-sdk/anthropic runs parallel calls, a custom id, a repaired name, an invalid reroute and text", {
  timeout: 240_000,
}, async () => {
  const result = await runE2E({
    directory: project,
    script: {
      turns: [
        {
          calls: [
            { tool: "echo", args: { message: "one" } },
            { tool: "echo", args: { message: "two" }, id: "toolu_custom" },
          ],
        },
        { calls: [{ tool: "ECHO", args: { message: "three" } }] },
        { calls: [{ tool: "echo", rawArgs: "{not json" }] },
        { text: "done" },
      ],
    },
    provider: "@ai-sdk/anthropic",
    tempDirectory: tempParent.path,
    timeoutMs: 180_000,
  })
  expect(result.exitCode).toBe(0)
  expect(result.errors).toEqual([])
  expect(result.requests.map((request) => [request.path, request.kind])).toEqual([
    ["/v1/messages", "title"],
    ...Array.from({ length: 4 }, () => ["/v1/messages", "main"]),
  ])
  // Anthropic's tools: name, description and input_schema.
  expect(result.tools?.map((tool) => (tool as { name: string }).name)).toContain("echo")
  expect(
    result.calls.map((call) => [call.turn, call.id, call.as_called.name, call.as_run?.name, call.status, call.result]),
  ).toEqual([
    [0, "call_1", "echo", "echo", "completed", "echo: one (call call_1)"],
    [0, "toolu_custom", "echo", "echo", "completed", "echo: two (call toolu_custom)"],
    [1, "call_2", "ECHO", "echo", "completed", "echo: three (call call_2)"],
    [
      2,
      "call_3",
      "echo",
      "invalid",
      "completed",
      expect.stringContaining("The arguments provided to the tool are invalid"),
    ],
  ])
  expect(result.calls[0]?.as_run?.arguments).toBe('{"message":"one"}')
  expect(result.events.some((event) => (event as { part?: { text?: string } }).part?.text === "done")).toBe(true)
  expect(leftoverFolders(tempParent.path)).toEqual([])
})
