import { describe, expectTypeOf, test } from "vitest"
import type { Hooks, Plugin, ToolContext, ToolDefinition, ToolResult } from "../src/index.ts"
import { tool } from "../src/index.ts"

describe("tool() types", () => {
  test("execute receives the inferred zod types of args", () => {
    tool({
      description: "d",
      args: {
        name: tool.schema.string(),
        count: tool.schema.number().optional(),
        mode: tool.schema.enum(["a", "b"]),
        tags: tool.schema.array(tool.schema.string()).default([]),
      },
      async execute(args, context) {
        expectTypeOf(args).toEqualTypeOf<{
          name: string
          count?: number | undefined
          mode: "a" | "b"
          tags: string[]
        }>()
        expectTypeOf(context).toEqualTypeOf<ToolContext>()
        return args.name
      },
    })
  })

  test("the result is a string or an object with output", () => {
    expectTypeOf<string>().toExtend<ToolResult>()
    expectTypeOf<{ output: string; title: string; metadata: { n: number } }>().toExtend<ToolResult>()
    expectTypeOf<number>().not.toExtend<ToolResult>()
    expectTypeOf<{ title: string }>().not.toExtend<ToolResult>()
  })

  test("a wrong execute signature is a type error", () => {
    tool({
      description: "d",
      args: { n: tool.schema.number() },
      // @ts-expect-error args.n is a number, not a string
      async execute(args: { n: string }) {
        return args.n
      },
    })
    tool({
      description: "d",
      args: {},
      // @ts-expect-error execute must return a promise of a ToolResult
      execute() {
        return 1
      },
    })
  })

  test("an argument that is not a zod schema is a type error", () => {
    tool({
      description: "d",
      // @ts-expect-error a plain JSON Schema is not a zod type
      args: { n: { type: "number" } },
      async execute() {
        return ""
      },
    })
  })

  test("a definition made by tool() fits the tool hook of a plugin", () => {
    const greet = tool({ description: "d", args: { name: tool.schema.string() }, execute: async (args) => args.name })
    expectTypeOf(greet).toExtend<ToolDefinition>()
    const plugin: Plugin = async () => ({ tool: { greet } })
    expectTypeOf(plugin).returns.resolves.toEqualTypeOf<Hooks>()
    expectTypeOf<Hooks["tool.execute.before"]>().parameters.toEqualTypeOf<
      [{ tool: string; sessionID: string; callID: string }, { args: any }]
    >()
  })
})
