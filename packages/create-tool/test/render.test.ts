import { expect, test } from "vitest"
import { objectKey, type RenderContext, renderTemplate, topLevelIdentifiers } from "../src/render.ts"

const tool = (id: string, exportName: string) => ({
  id,
  exportName,
  description: `does ${exportName}`,
  scriptUrl: `./${id}.py`,
})

const context = (overrides: Partial<RenderContext> = {}): RenderContext => ({
  flags: new Set(["project", "ts"]),
  tools: [tool("math", "default")],
  values: { __TOOL_NAME__: "math" },
  description: "Math things",
  ...overrides,
})

test("keeps @if blocks whose flag is set and drops the directive lines", () => {
  const source = ["a", "// @if project", "b", "// @end", "// @if plugin", "c", "// @end", "d"].join("\n")
  expect(renderTemplate(source, context())).toBe("a\nb\nd")
})

test("understands #, // and <!-- --> directives", () => {
  const source = ["# @if plugin", "x", "# @end", "<!-- @if ts -->", "y", "<!-- @end -->"].join("\n")
  expect(renderTemplate(source, context())).toBe("y")
})

test("repeats a tool block once per export, turning export default into a named export", () => {
  const source = [
    "// @tool-begin",
    "export default tool({",
    '  description: "__DESCRIPTION__",',
    '  id: "__TOOL_ID__", script: "__SCRIPT_URL__",',
    "})",
    "// @tool-end",
  ].join("\n")
  const rendered = renderTemplate(source, context({ tools: [tool("math_add", "add"), tool("math_sub", "sub")] }))
  expect(rendered).toBe(
    [
      "export const add = tool({",
      '  description: "does add",',
      '  id: "math_add", script: "./math_add.py",',
      "})",
      "",
      "export const sub = tool({",
      '  description: "does sub",',
      '  id: "math_sub", script: "./math_sub.py",',
      "})",
    ].join("\n"),
  )
})

test("keeps export default for the default export, and one-line blocks without blank lines", () => {
  const source = ["// @tool-begin", "    __TOOL_KEY__: tools.__EXPORT__,", "// @tool-end"].join("\n")
  expect(renderTemplate(source, context({ tools: [tool("my-tool", "default")] }))).toBe('    "my-tool": tools.default,')
  expect(renderTemplate(source, context({ tools: [tool("m_a", "a"), tool("m_b", "b")] }))).toBe(
    "    m_a: tools.a,\n    m_b: tools.b,",
  )
})

test("writes the description as a JSON string, so quotes and newlines cannot break the code", () => {
  const description = ['Say "hi"', "then $& and $", "{x} and \\"].join("\n")
  const rendered = renderTemplate('const d = "__DESCRIPTION__"', context({ description }))
  expect(rendered).toBe(`const d = ${JSON.stringify(description)}`)
})

test("replaces the id list and plain values", () => {
  const source = 'expect(ids).toEqual(["__TOOL_IDS__"]) // __TOOL_NAME__'
  const rendered = renderTemplate(source, context({ tools: [tool("m_a", "a"), tool("m_b", "b")] }))
  expect(rendered).toBe('expect(ids).toEqual(["m_a", "m_b"]) // math')
})

test("topLevelIdentifiers finds imports and declarations", () => {
  const source = [
    'import { execFile, spawn as run } from "node:child_process"',
    'import * as path from "node:path"',
    'import tool from "x"',
    'import type { Plugin } from "y"',
    "export const add = 1",
    "const python = 2",
    "async function runPython() {}",
    "type ProgramResult = {}",
    "  const nested = 3",
  ].join("\n")
  expect(topLevelIdentifiers(source)).toEqual([
    "Plugin",
    "ProgramResult",
    "add",
    "execFile",
    "path",
    "python",
    "run",
    "runPython",
    "tool",
  ])
})

test("objectKey quotes only what is not an identifier", () => {
  expect(objectKey("hello")).toBe("hello")
  expect(objectKey("my-tool")).toBe('"my-tool"')
})
