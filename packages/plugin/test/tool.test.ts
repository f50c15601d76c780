import { describe, expect, test } from "vitest"
import { z } from "zod"
import * as plugin from "../src/index.ts"
import { tool } from "../src/index.ts"

describe("tool()", () => {
  test("returns the very object it is given", () => {
    const input = { description: "d", args: {}, execute: async () => "ok" }
    expect(tool(input)).toBe(input)
  })

  test("exposes zod 4.1.8 as tool.schema, the version opencode converts schemas with", () => {
    expect(tool.schema.string().safeParse("x").success).toBe(true)
    expect(tool.schema.toJSONSchema).toBeTypeOf("function")
    expect(tool.schema).toBe(z)
    expect(z.string()._zod.version).toEqual({ major: 4, minor: 1, patch: 8 })
  })

  test("the root entry exports only the tool value at run time, like the real package", async () => {
    expect(Object.keys(plugin)).toEqual(["tool"])
    const real = await import("real-opencode-plugin")
    expect(Object.keys(plugin).sort()).toEqual(Object.keys(real).sort())
  })

  test("the ./tool subpath exports the same tool()", async () => {
    const sub = await import("@opencode-ai/plugin/tool")
    expect(Object.keys(sub)).toEqual(["tool"])
  })
})
