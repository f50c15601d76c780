import { describe, expect, test } from "vitest"
import { lintSchemas } from "../../src/lint/lint.ts"
import type { LintProvider } from "../../src/lint/providers.ts"
import { LINT_RULES } from "../../src/lint/rules.ts"
import type { ToolSchema } from "../../src/pipeline/tool-schemas.ts"

const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: "object",
  properties,
  ...extra,
})
const tool = (parameters: Record<string, unknown>, name = "weather", description = "Weather"): ToolSchema => ({
  name,
  description,
  parameters,
})
const plain = tool(object({ city: { type: "string" } }, { required: ["city"] }))
const recursive = {
  type: "object",
  properties: { tree: { $ref: "#/$defs/node" } },
  $defs: { node: { type: "object", properties: { children: { type: "array", items: { $ref: "#/$defs/node" } } } } },
}

// For every rule: a provider it applies to, a tool that breaks it, and one that does not.
const cases: Record<string, { provider: LintProvider; bad: ToolSchema; good: ToolSchema; toolCount?: number }> = {
  "openai/name": { provider: "openai", bad: tool(object({}), "weather.test"), good: tool(object({}), "weather_test") },
  "anthropic/name": {
    provider: "anthropic",
    bad: tool(object({}), "a".repeat(129)),
    good: tool(object({}), "a".repeat(128)),
  },
  "gemini/name": { provider: "google", bad: tool(object({}), "2fa"), good: tool(object({}), "two.fa:x") },
  "moonshot/name": { provider: "moonshot", bad: tool(object({}), "_private"), good: tool(object({}), "private_") },
  "mistral/name": { provider: "mistral", bad: tool(object({}), "my tool"), good: tool(object({}), "my-tool") },
  "bedrock/name": {
    provider: "bedrock",
    bad: tool(object({}), "a".repeat(65)),
    good: tool(object({}), "a".repeat(64)),
  },
  "openai/tool-count": { provider: "openai-compatible", bad: plain, good: plain, toolCount: 129 },
  "openai/description-length": {
    provider: "openai",
    bad: tool(object({}), "long", "x".repeat(1025)),
    good: tool(object({}), "long", "x".repeat(1024)),
  },
  "openai-compatible/object-and-array-shapes": {
    provider: "openai-compatible",
    bad: tool(object({ point: { type: "array", prefixItems: [{ type: "number" }] } })),
    good: tool(object({ point: { type: "array", items: { type: "number" } } })),
  },
  "anthropic/root-object": {
    provider: "anthropic",
    bad: tool({ anyOf: [object({ a: { type: "string" } }), object({ b: { type: "string" } })] }),
    good: plain,
  },
  "anthropic/dangling-ref": {
    provider: "anthropic",
    bad: tool({ ...recursive, $defs: undefined, definitions: recursive.$defs }),
    good: tool(recursive),
  },
  "gemini/ref": { provider: "google", bad: tool(recursive), good: plain },
  "gemini/empty-object": {
    provider: "google",
    bad: tool(object({ options: { type: "object", properties: {} } })),
    good: tool(object({ options: object({ verbose: { type: "boolean" } }) })),
  },
  "gemini/non-string-const": {
    provider: "google",
    bad: tool(object({ version: { const: 3 } })),
    good: tool(object({ version: { const: "3" } })),
  },
  "gemini/all-of": {
    provider: "google",
    bad: tool(object({ both: { allOf: [object({ a: { type: "string" } }), object({ b: { type: "string" } })] } })),
    good: plain,
  },
  "gemini-gateway/unknown-keys": {
    provider: "gemini-gateway",
    bad: tool(
      object(
        { city: { type: "string" } },
        { $schema: "https://json-schema.org/draft/2020-12/schema", additionalProperties: false },
      ),
    ),
    good: plain,
  },
  "moonshot/type-beside-any-of": {
    provider: "moonshot",
    bad: tool(object({ value: { type: "string", anyOf: [{ type: "string" }, { type: "null" }] } })),
    good: tool(object({ value: { anyOf: [{ type: "string" }, { type: "null" }] } })),
  },
  "moonshot/ref-target": {
    provider: "moonshot",
    bad: tool({ ...recursive, $defs: undefined, definitions: recursive.$defs }),
    good: tool(recursive),
  },
  "moonshot/boolean-property": { provider: "moonshot", bad: tool(object({ flag: true })), good: plain },
  "bedrock/description": {
    provider: "bedrock",
    bad: tool(object({}), "quiet", ""),
    good: tool(object({}), "quiet", "Quiet"),
  },
}

describe("provider lint rules", () => {
  test("every rule has a case here, and every case a rule", () => {
    expect(Object.keys(cases).sort()).toEqual(LINT_RULES.map((rule) => rule.id).sort())
  })

  test.each(Object.entries(cases))(
    "%s: the bad tool is a finding, the good one is not",
    (id, { provider, bad, good, toolCount }) => {
      const rulesOf = (schema: ToolSchema) =>
        lintSchemas(provider, [schema], { toolCount: toolCount ?? 1 }).map((finding) => finding.rule)
      expect(rulesOf(bad)).toContain(id)
      if (toolCount === undefined) expect(rulesOf(good)).not.toContain(id)
      else expect(lintSchemas(provider, [good], { toolCount: 128 }).map((finding) => finding.rule)).not.toContain(id)
    },
  )

  test("a finding says which provider, rule and tool, in one line with its source", () => {
    const [finding] = lintSchemas("google", [tool(object({ options: { type: "object", properties: {} } }), "prefs")])
    expect(finding).toEqual({
      provider: "google",
      rule: "gemini/empty-object",
      severity: "error",
      kind: "schema",
      tool: "prefs",
      message:
        'prefs: options is an object with no properties (z.object({}) or z.record): Gemini answers "properties: should be non-empty for OBJECT type"',
      source: "MarkusPfundstein/mcp-obsidian #21 (properties: should be non-empty for OBJECT type)",
    })
  })

  test("a rule applies only to its providers", () => {
    const dotted = tool(object({}), "weather.test")
    expect(lintSchemas("google", [dotted])).toEqual([])
    expect(lintSchemas("openai", [dotted]).map((finding) => finding.rule)).toEqual(["openai/name"])
  })
})
