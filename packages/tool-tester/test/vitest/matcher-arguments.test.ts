import { describe, expect, test } from "vitest"
import "../../src/vitest/index.ts"
import type { ToolProject } from "../../src/index.ts"

// Checked before any schema is built: a project-shaped value is enough.
const project = {
  tools: [],
  engine: { name: "node", version: process.versions.node, binary: "" },
} as unknown as ToolProject

describe("the matchers' own arguments", () => {
  test("toMatchProviderSchemas given one provider name instead of a list says to write the list", async () => {
    await expect(expect(project).toMatchProviderSchemas("openai" as never)).rejects.toThrow(
      'toMatchProviderSchemas() takes a list of providers: write ["openai"], not "openai"',
    )
  })

  test("an empty list asks for a provider, and names them", async () => {
    await expect(expect(project).toMatchProviderSchemas([])).rejects.toThrow(/^name at least one provider: .*openai/)
  })
})
