// e2e's mock model speaks the OpenAI chat-completions and responses APIs (docs/cli.md#e2e). A
// provider of another API sends opencode's requests to a route the mock does not answer: a usage
// error naming the route, where it was OPENCODE_FAILED with "Not Found" from opencode's log. A
// provider that parses the chat-completions stream strictly (@ai-sdk/mistral) runs the script.
import { fileURLToPath } from "node:url"
import { afterAll, expect, test } from "vitest"
import { runE2E } from "../../src/e2e/run-e2e.ts"
import { ToolTesterError } from "../../src/errors.ts"
import { leftoverFolders, makeTempParent } from "./leftovers.ts"

const project = fileURLToPath(new URL("../fixtures/e2e-round-trip", import.meta.url))
const tempParent = makeTempParent()
afterAll(() => tempParent.remove())
const script = { turns: [{ calls: [{ tool: "echo", args: { message: "hi" } }] }, { text: "done" }] }

test("a provider of another API (anthropic's /messages) is USAGE naming the route it was sent to", {
  timeout: 240_000,
}, async () => {
  const error = await runE2E({
    directory: project,
    script,
    provider: "@ai-sdk/anthropic",
    tempDirectory: tempParent.path,
    timeoutMs: 180_000,
  }).then(
    () => undefined,
    (caught: unknown) => caught,
  )
  if (!ToolTesterError.isInstance(error)) throw new Error(`expected a ToolTesterError, got ${String(error)}`)
  expect(error.code).toBe("USAGE")
  expect(error.message).toContain(
    "opencode sent the model's requests for @ai-sdk/anthropic to POST /v1/messages, an API e2e's mock model does not speak",
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
