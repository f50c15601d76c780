import { describe, expect, test } from "vitest"
import { loadTools } from "../../src/index.ts"
import { lintProject, lintSchemas } from "../../src/lint/lint.ts"
import { LINT_PROVIDER_NAMES } from "../../src/lint/providers.ts"
import { isolatedEnvironment, tmpProject } from "../support/tmp-project.ts"

// The lint sees what opencode sends each provider: what opencode's own fixes repair is no finding.
describe("lintProject", { timeout: 60_000 }, () => {
  test("what opencode fixes for a provider is no finding there: a tuple passes OpenAI, fails OpenAI-compatible endpoints", async () => {
    const { env, home } = isolatedEnvironment()
    const project = await loadTools({
      directory: tmpProject({
        ".opencode/tools/tags.ts": `import { tool } from "@opencode-ai/plugin"
export default tool({
  description: "Tags",
  args: {
    point: tool.schema.tuple([tool.schema.number(), tool.schema.number()]),
    tags: tool.schema.record(tool.schema.string(), tool.schema.string()),
  },
  async execute() { return "ok" },
})
`,
      }),
      env,
      home,
    })
    const result = await lintProject(project, ["openai", "openai-compatible", "google"])
    expect(result.success).toBe(true)
    if (!result.success) return
    expect(result.value.map(({ provider, rule, tool }) => `${provider} ${rule} ${tool}`)).toEqual([
      "openai-compatible openai-compatible/object-and-array-shapes tags",
      "google gemini/empty-object tags",
    ])
  })

  test("a robust tool gets no finding from any provider", async () => {
    const { env, home } = isolatedEnvironment()
    const project = await loadTools({
      directory: tmpProject({
        ".opencode/tools/weather.ts": `import { tool } from "@opencode-ai/plugin"
export default tool({
  description: "Weather for a city",
  args: { city: tool.schema.string().describe("City"), days: tool.schema.number().int().min(1).max(7).optional() },
  async execute() { return "sunny" },
})
`,
      }),
      env,
      home,
    })
    // Every provider but a Gemini gateway, which rejects the $schema every zod schema has.
    const providers = LINT_PROVIDER_NAMES.filter((provider) => provider !== "gemini-gateway")
    expect(await lintProject(project, providers)).toEqual({ success: true, value: [] })
  })
})

test("an unknown provider, or providers or schemas that are not lists, are USAGE naming them, not an empty lint or a TypeError", async () => {
  const project = { directory: "/project", tools: [], plugins: [], config: {} } as never
  const refused = (option: string, message?: RegExp) =>
    expect.objectContaining({
      code: "USAGE",
      data: { option },
      ...(message ? { message: expect.stringMatching(message) } : {}),
    })
  // A misspelt provider linted nothing and passed.
  expect(() => lintSchemas("opnai" as never, [])).toThrow(
    refused("provider", /unknown provider "opnai": did you mean openai\?/),
  )
  expect(() => lintSchemas("openai", null as never)).toThrow(refused("schemas"))
  expect(() => lintSchemas("openai", [5] as never)).toThrow(refused("schemas"))
  await expect(lintProject(project, ["opnai"] as never)).rejects.toEqual(refused("provider"))
  await expect(lintProject(project, "openai" as never)).rejects.toEqual(refused("providers", /write \["openai"\]/))
  expect(lintSchemas("openai", [])).toEqual([])
})
