import { expect, test } from "vitest"
import { chooseTestScript } from "../src/test-script.ts"

const path = "/app/.opencode/package.json"
const pick = (scripts: unknown) => chooseTestScript(scripts === undefined ? {} : { scripts }, "vitest run", path)

test("the test goes in `test` when there is no package.json, no scripts, or no test script", () => {
  expect(chooseTestScript(undefined, "vitest run", path)).toEqual({ name: "test", note: undefined })
  expect(pick(undefined)).toEqual({ name: "test", note: undefined })
  expect(pick({ build: "tsc" })).toEqual({ name: "test", note: undefined })
})

test("a test script that already runs the test is used as it is, without a note", () => {
  expect(pick({ test: "vitest run" })).toEqual({ name: "test", note: undefined })
})

test("beside a test script of the user's, the test goes in test:tools and the note names both", () => {
  expect(pick({ test: "node --test" })).toEqual({
    name: "test:tools",
    note: `${path}: kept your script "test" (node --test) as it is, and added the tool's test as the "test:tools" script, which the next steps run.`,
  })
})

test("a test:tools of create-tool's from an earlier run is used again, without a note", () => {
  expect(pick({ test: "node --test", "test:tools": "vitest run" })).toEqual({ name: "test:tools", note: undefined })
})

test("when test:tools is the user's too, the first free test:tools-N is taken", () => {
  const taken = { test: "node --test", "test:tools": "jest", "test:tools-2": 'echo "mine"' }
  expect(pick(taken)).toEqual({
    name: "test:tools-3",
    note: `${path}: kept your scripts "test" (node --test), "test:tools" (jest), "test:tools-2" (echo "mine") as they are, and added the tool's test as the "test:tools-3" script, which the next steps run.`,
  })
  expect(pick({ ...taken, "test:tools-3": "vitest run" }).name).toBe("test:tools-3")
})

test("a script value that is not text is shown as JSON, and escaped characters stay visible", () => {
  expect(pick({ test: 1 }).note).toContain('"test" (1)')
  expect(pick({ test: "node --test\u202E" }).note).toContain('"test" (node --test\\u{202E})')
})

test.each([["x"], [["vitest run"]], [null]])("scripts as %j is an INVALID_PACKAGE_JSON error", (scripts) => {
  expect(() => pick(scripts)).toThrow(
    expect.objectContaining({
      code: "INVALID_PACKAGE_JSON",
      message: `${path} has a "scripts" field that is not an object, so the test's script cannot be added: make it an object and run again.`,
    }),
  )
})
