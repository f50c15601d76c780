// When opencode marks a request's last two messages for prompt caching (src/pipeline/prompt-caching.ts,
// docs/opencode-contract.md#attachments). The forms of the marks are compared with the real opencode
// in test/e2e/attachments.test.ts; this covers the rule's other branches, read from opencode's code
// where e2e cannot run them (the gateway, Vertex's Anthropic models, a configured API id).
import { describe, expect, test } from "vitest"
import { marksForCaching } from "../src/pipeline/prompt-caching.ts"

const compatible = (modelID: string, providerID = "mock") => ({ npm: "@ai-sdk/openai-compatible", providerID, modelID })
const withOptions = (providerID: string, modelID: string, entry: Record<string, unknown>) => ({
  provider: { [providerID]: { models: { [modelID]: entry } } },
})

describe("opencode marks the last messages for caching", () => {
  test("for an Anthropic model: by provider, by a model or API id naming it, by package", () => {
    expect(marksForCaching(compatible("claude-sonnet-4"), {})).toBe(true)
    expect(marksForCaching(compatible("my-anthropic-model"), {})).toBe(true)
    expect(marksForCaching(compatible("gpt-5", "anthropic"), {})).toBe(true)
    expect(marksForCaching(compatible("gpt-5", "google-vertex-anthropic"), {})).toBe(true)
    expect(marksForCaching({ npm: "@ai-sdk/anthropic", providerID: "mock", modelID: "mock-model" }, {})).toBe(true)
    expect(marksForCaching({ npm: "@ai-sdk/alibaba", providerID: "qwen", modelID: "qwen-max" }, {})).toBe(true)
    // The config's `id` is the model's API id: a short name for a Claude model.
    expect(marksForCaching(compatible("fast"), withOptions("mock", "fast", { id: "claude-haiku-4" }))).toBe(true)
  })

  test("not for other models, nor through the AI gateway", () => {
    expect(marksForCaching(compatible("gpt-5"), {})).toBe(false)
    expect(marksForCaching({ npm: "@ai-sdk/openai", providerID: "openai", modelID: "gpt-5" }, {})).toBe(false)
    expect(marksForCaching({ npm: "@ai-sdk/gateway", providerID: "vercel", modelID: "anthropic/claude-4" }, {})).toBe(
      false,
    )
  })

  test("not when the model's own options set cacheControl for the Anthropic packages, which cache the whole request", () => {
    const cached = { options: { cacheControl: { type: "ephemeral" } } }
    const anthropic = { npm: "@ai-sdk/anthropic", providerID: "mock", modelID: "mock-model" }
    expect(marksForCaching(anthropic, withOptions("mock", "mock-model", cached))).toBe(false)
    const vertex = {
      npm: "@ai-sdk/google-vertex/anthropic",
      providerID: "google-vertex-anthropic",
      modelID: "claude-4",
    }
    expect(marksForCaching(vertex, withOptions("google-vertex-anthropic", "claude-4", cached))).toBe(false)
    // Observed: the provider's options change nothing, nor does the option for another package.
    expect(
      marksForCaching(anthropic, { provider: { mock: { options: { cacheControl: { type: "ephemeral" } } } } }),
    ).toBe(true)
    expect(marksForCaching(compatible("claude-x"), withOptions("mock", "claude-x", cached))).toBe(true)
  })
})
