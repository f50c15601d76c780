import { describe, expect, test } from "vitest"
import { getToolSchemas, listTools, loadTools } from "../src/index.ts"
import { isolatedEnvironment, tmpProject, toolSource } from "./support/tmp-project.ts"

async function project(files: Record<string, string>) {
  const { env, home } = isolatedEnvironment()
  return loadTools({ directory: tmpProject(files), env, home })
}

describe("listTools", () => {
  test("sorts built-ins and custom tools together the way opencode sorts them", async () => {
    const loaded = await project({
      ".opencode/tools/alpha.ts": toolSource("a"),
      ".opencode/tools/MyTool.ts": toolSource("m"),
      ".opencode/tools/my-dashed.tool.ts": toolSource("d"),
      ".opencode/tools/math.ts": `export const add = { description: "", args: {}, execute: async () => "" }\nexport default { description: "", args: {}, execute: async () => "" }\n`,
    })
    expect(listTools(loaded).map((tool) => tool.id)).toEqual([
      "alpha",
      "bash",
      "edit",
      "glob",
      "grep",
      "math",
      "math_add",
      "my-dashed.tool",
      "MyTool",
      "read",
      "skill",
      "task",
      "todowrite",
      "webfetch",
      "write",
    ])
  })

  test("gives GPT-5 models apply_patch instead of edit and write, custom tools of those names included", async () => {
    const loaded = await project({ ".opencode/tools/edit.ts": toolSource("custom edit") })
    const ids = (modelID: string) => listTools(loaded, { model: { modelID } }).map((tool) => tool.id)
    for (const modelID of ["gpt-5", "gpt-5-codex", "openai/gpt-5.1"]) {
      expect(ids(modelID)).toContain("apply_patch")
      expect(ids(modelID)).not.toContain("edit")
    }
    for (const modelID of ["gpt-4o", "gpt-4.1", "gpt-oss-120b", "claude-sonnet-4", "GPT-5"]) {
      expect(ids(modelID)).toEqual(expect.arrayContaining(["edit", "write"]))
      expect(ids(modelID)).not.toContain("apply_patch")
    }
    expect(listTools(loaded).find((tool) => tool.id === "edit")).toMatchObject({ source: "file", overrides: "builtin" })
  })

  test("leaves out tools the permission rules deny for every pattern", async () => {
    const loaded = await project({
      "opencode.json": `{ "permission": { "*": "allow", "perm_a": "deny", "task": "deny", "edit": "deny", "perm_b": { "*": "deny", "safe/*": "allow" } } }`,
      ".opencode/tools/perm_a.ts": toolSource("a"),
      ".opencode/tools/perm_b.ts": toolSource("b"),
    })
    const ids = listTools(loaded).map((tool) => tool.id)
    expect(ids).not.toContain("perm_a")
    expect(ids).not.toContain("task")
    expect(ids).not.toContain("edit")
    expect(ids).not.toContain("write")
    // Its last rule has a specific pattern: opencode keeps it listed.
    expect(ids).toContain("perm_b")
    expect(listTools(loaded, { permissions: { deny: ["perm_b"] } }).map((tool) => tool.id)).not.toContain("perm_b")
  })
})

describe("getToolSchemas", () => {
  test("returns custom tools as the provider receives them, in request order", async () => {
    const loaded = await project({
      ".opencode/tools/zeta.ts": toolSource(
        "z",
        "return ''",
        `{ n: tool.schema.enum(["1", "2"]), list: tool.schema.array(tool.schema.any()) }`,
      ),
      ".opencode/tools/alpha.ts": toolSource("a", "return ''", `{ name: tool.schema.string().describe("who") }`),
    })
    const schemas = await getToolSchemas(loaded)
    expect(schemas.success && schemas.value.map((schema) => schema.name)).toEqual(["alpha", "zeta"])
    expect(schemas.success && JSON.stringify(schemas.value[0])).toBe(
      `{"name":"alpha","description":"a","parameters":{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"name":{"description":"who","type":"string"}},"required":["name"]}}`,
    )
    const gemini = await getToolSchemas(loaded, { model: { modelID: "gemini-2.5-pro" } })
    expect(gemini.success && JSON.stringify(gemini.value[1]!.parameters["properties"])).toBe(
      `{"n":{"type":"string","enum":["1","2"]},"list":{"type":"array","items":{"type":"string"}}}`,
    )
    const openai = await getToolSchemas(loaded, { model: { npm: "@ai-sdk/openai", modelID: "gpt-5" } })
    expect(openai.success && openai.value[0]).toMatchObject({ strict: false })
    expect(openai.success && "$schema" in openai.value[0]!.parameters).toBe(false)
  })

  test("fails the whole list when one tool has an argument JSON Schema cannot express", async () => {
    const loaded = await project({
      ".opencode/tools/ok.ts": toolSource("ok"),
      ".opencode/tools/when.ts": toolSource("when", "return ''", "{ at: tool.schema.date() }"),
    })
    const schemas = await getToolSchemas(loaded)
    expect(schemas.success).toBe(false)
    if (schemas.success) return
    expect(schemas.error.code).toBe("SCHEMA_UNREPRESENTABLE")
    expect(schemas.error.message).toContain("when.ts: tool when:")
    expect(schemas.error.message).toContain("Date cannot be represented in JSON Schema")
  })
})
