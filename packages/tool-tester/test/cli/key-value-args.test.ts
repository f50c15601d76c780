import { describe, expect, test } from "vitest"
import { argsFromPairs } from "../../src/tasks/key-value-args.ts"

const schema = {
  type: "object",
  properties: {
    name: { type: "string" },
    count: { type: "integer" },
    ratio: { type: "number" },
    loud: { type: "boolean" },
    tags: { type: "array", items: { type: "string" } },
    options: { type: "object" },
    either: { anyOf: [{ type: "number" }, { type: "null" }] },
    level: { type: "number", enum: [1, 2, 3] },
  },
}

describe("key=value arguments", () => {
  test("each value is read as the schema says", () => {
    expect(
      argsFromPairs(
        ["name=007", "count=5", "ratio=0.5", "loud=false", 'tags=["a"]', 'options={"x":1}', "either=null", "level=2"],
        schema,
      ),
    ).toEqual({
      name: "007",
      count: 5,
      ratio: 0.5,
      loud: false,
      tags: ["a"],
      options: { x: 1 },
      either: null,
      level: 2,
    })
  })

  test("keys the schema does not list stay text, and values may contain =", () => {
    expect(argsFromPairs(["other=a=b", "n=5"], undefined)).toEqual({ other: "a=b", n: "5" })
  })

  test("values that do not fit the schema are errors that name the key", () => {
    expect(() => argsFromPairs(["count=1.5"], schema)).toThrow(/count=1.5: the tool's schema says count is an integer/)
    expect(() => argsFromPairs(["loud=yes"], schema)).toThrow(/true or false/)
    expect(() => argsFromPairs(["tags=a,b"], schema)).toThrow(/JSON/)
    expect(() => argsFromPairs(["=x"], schema)).toThrow(/not a key=value pair/)
  })
})
