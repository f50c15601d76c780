// What the model receives for results with attachments: the real opencode's next request, as e2e's
// mock model recorded it, beside tool-tester's `modelMessages` for the same calls
// (docs/opencode-contract.md#attachments). Per provider API and model input: chat completions for a
// model without image or PDF input and for one with both, the responses API, and Anthropic's
// messages API. Each call is compared with the request that followed it, the one `modelMessages`
// describes (Anthropic's marks the last message of a request for caching).
import { afterAll, describe, expect, test } from "vitest"
import { runE2E } from "../../src/e2e/run-e2e.ts"
import type { ModelModality } from "../../src/index.ts"
import { runTool } from "../../src/index.ts"
import { fixture } from "../helpers.ts"
import { useLoadedFixture } from "../support/loaded-fixture.ts"
import { leftoverFolders, makeTempParent } from "./leftovers.ts"

const directory = fixture("attachments")
const tempParent = makeTempParent()
const loaded = useLoadedFixture("attachments")
afterAll(() => tempParent.remove())

const imageAndPdf = {
  provider: {
    mock: { models: { "mock-model": { modalities: { input: ["text", "image", "pdf"], output: ["text"] } } } },
  },
}

const setups: Array<{
  name: string
  npm: string
  modelInput: ModelModality[]
  config?: Record<string, unknown>
  cases: string[]
}> = [
  {
    name: "openai-compatible, no image or PDF input",
    npm: "@ai-sdk/openai-compatible",
    modelInput: [],
    cases: ["text", "png", "several", "badPng", "httpsImage", "notFile"],
  },
  {
    name: "openai-compatible, image and PDF input",
    npm: "@ai-sdk/openai-compatible",
    modelInput: ["image", "pdf"],
    config: imageAndPdf,
    cases: ["several", "pdfNoName"],
  },
  { name: "openai (responses API)", npm: "@ai-sdk/openai", modelInput: [], cases: ["several", "httpsText"] },
  {
    name: "anthropic (messages API), no image or PDF input",
    npm: "@ai-sdk/anthropic",
    modelInput: [],
    cases: ["text", "png", "pdfNoName", "several", "otherFiles", "badPng", "httpsText", "emptyOutput", "notFile"],
  },
  {
    name: "anthropic (messages API), image and PDF input",
    npm: "@ai-sdk/anthropic",
    modelInput: ["image", "pdf"],
    config: imageAndPdf,
    cases: ["several"],
  },
]

/**
 * The items of a request's messages that carry call `id`'s result: its tool item (a tool message, a
 * function_call_output item, or the user message holding its tool_result block), then the user
 * messages after it.
 */
function carried(items: unknown[], id: string): unknown[] {
  const start = items.findIndex((item) => {
    const record = item as Record<string, unknown>
    const blocks = Array.isArray(record["content"]) ? (record["content"] as Array<Record<string, unknown>>) : []
    return (
      record["tool_call_id"] === id ||
      (record["call_id"] === id && record["type"] === "function_call_output") ||
      blocks.some((block) => block["type"] === "tool_result" && block["tool_use_id"] === id)
    )
  })
  if (start === -1) return []
  const end = items.findIndex((item, index) => index > start && (item as Record<string, unknown>)["role"] !== "user")
  return items.slice(start, end === -1 ? undefined : end)
}

describe("attachments: tool-tester's modelMessages are what opencode's next request carries", () => {
  for (const setup of setups)
    test(setup.name, { timeout: 300_000 }, async () => {
      const turns = setup.cases.map((which) => ({ calls: [{ tool: "attach", args: { case: which } }] }))
      const e2e = await runE2E({
        directory,
        script: { turns: [...turns, { text: "done" }] },
        provider: setup.npm,
        ...(setup.config === undefined ? {} : { config: setup.config }),
        tempDirectory: tempParent.path,
        timeoutMs: 240_000,
      })
      expect(e2e.exitCode).toBe(0)
      const mains = e2e.requests.filter((request) => request.kind === "main")
      expect(mains).toHaveLength(setup.cases.length + 1)
      for (const [index, which] of setup.cases.entries()) {
        const callID = `call_${index + 1}`
        const next = mains[index + 1]!.body as Record<string, unknown>
        const items = (next["messages"] ?? next["input"]) as unknown[]
        const model = { npm: setup.npm, providerID: "mock", modelID: "mock-model" }
        const result = await runTool(
          loaded.project,
          "attach",
          { case: which },
          { model, modelInput: setup.modelInput, callID },
        )
        expect({ which, messages: result.modelMessages }).toEqual({ which, messages: carried(items, callID) })
      }
      expect(leftoverFolders(tempParent.path)).toEqual([])
    })
})
