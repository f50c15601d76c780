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

  test("a misspelled provider is USAGE naming the closest one, and a matcher given no project says to await it", async () => {
    await expect(expect(project).toBeAcceptedBy("gogle" as never)).rejects.toMatchObject({
      code: "USAGE",
      message: expect.stringContaining('unknown provider "gogle": did you mean google?'),
    })
    await expect(expect(Promise.resolve(project)).toLoadInOpencode()).rejects.toMatchObject({
      code: "USAGE",
      message: "toLoadInOpencode() expects the project loadTools() resolved to: await loadTools() first",
    })
    expect(() => expect("text").toMatchModelView()).toThrow(
      expect.objectContaining({ code: "USAGE", message: expect.stringContaining("await the call first") }),
    )
  })

  test("toLoadInOpencode's options are refused as runTool's are: a misspelled key, a bad bound, a signal that is none", async () => {
    await expect(expect(project).toLoadInOpencode({ timeout: 100 } as never)).rejects.toMatchObject({
      code: "USAGE",
      message: 'toLoadInOpencode() has no option "timeout"; did you mean "timeoutMs"?: it takes timeoutMs, signal',
    })
    await expect(expect(project).toLoadInOpencode({ timeoutMs: 0 })).rejects.toThrow(/^timeoutMs must be a number/)
    await expect(expect(project).toLoadInOpencode({ signal: "stop" as never })).rejects.toThrow(
      'signal must be an AbortSignal (the test context\'s signal), not "stop"',
    )
  })
})
