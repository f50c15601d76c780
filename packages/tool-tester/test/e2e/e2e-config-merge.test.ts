import { describe, expect, test } from "vitest"
import { mergeConfig } from "../../src/config/opencode-config.ts"
import { buildOpencodeConfig } from "../../src/e2e/opencode-config.ts"

// e2e's --config is merged over the mock provider by the same merge as opencode.json's layers
// (docs/opencode-contract.md#opencodejson-merging): e2e had a deep merge of its own.
describe("e2e --config merges as opencode.json layers merge", () => {
  const options = {
    baseURL: "http://127.0.0.1:1/v1",
    model: "mock-model",
    providerPackage: "@ai-sdk/openai-compatible",
    plugins: ["./a.ts"],
  }

  test("objects merge key by key, later wins; arrays and values are replaced; plugin lists add up", () => {
    const config = {
      provider: { mock: { options: { timeout: 5 } } },
      permission: { task: "deny" as const },
      instructions: ["b.md"],
      plugin: ["./b.ts"],
    }
    const { content } = buildOpencodeConfig({ ...options, config })
    const { plugin, ...rest } = content
    const { plugin: _, ...configRest } = config
    // What the one merge makes of the same layers, the plugin list aside.
    const { plugin: __, ...expected } = mergeConfig(
      buildOpencodeConfig({ ...options, config: undefined }).content,
      configRest,
    )
    expect(rest).toEqual(expected)
    expect(rest.provider).toMatchObject({
      mock: { options: { baseURL: options.baseURL, apiKey: "tool-tester-mock-key", timeout: 5 } },
    })
    expect(rest.instructions).toEqual(["b.md"])
    expect(plugin).toEqual(["./a.ts", "./b.ts"])
  })

  test("a value over an object replaces it", () => {
    const { content } = buildOpencodeConfig({ ...options, config: { provider: "none" } })
    expect(content.provider).toBe("none")
    expect(content.model).toBe("mock/mock-model")
  })
})
