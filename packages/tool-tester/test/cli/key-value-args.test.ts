import { describe, expect, test } from "vitest"
import { argsFromPairs, pairsFor, textUnderEverySchema } from "../../src/tasks/key-value-args.ts"
import { pairWarnings } from "../../src/tasks/pair-warnings.ts"

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

  test("a number is read only as JSON writes it, since that is all a model's call can hold", () => {
    expect(argsFromPairs(["ratio=-2.5e-1", "count=10", "either=-0"], schema)).toEqual({
      ratio: -0.25,
      count: 10,
      either: -0,
    })
    for (const text of [
      "0x10",
      "0o7",
      "0b1",
      "1_000",
      "Infinity",
      "-Infinity",
      "NaN",
      "+5",
      "",
      " 5",
      "5 ",
      "007",
      ".5",
      "5.",
    ]) {
      expect(() => argsFromPairs([`ratio=${text}`], schema), text).toThrow(
        `ratio=${text}: the tool's schema says ratio is a number, written as JSON`,
      )
      expect(() => argsFromPairs([`count=${text}`], schema), text).toThrow(/count is an integer, written as JSON/)
    }
    // Where the schema accepts text too, the same spellings stay text, as they always have.
    expect(argsFromPairs(["name=0x10"], schema)).toEqual({ name: "0x10" })
  })
})

describe("pairs a command can print", () => {
  test("plain text values become key=value pairs that read back the same", () => {
    const args = { city: "Paris", path: "docs/a-b_c.md:1" }
    const pairs = pairsFor(args)
    expect(pairs).toEqual(["city=Paris", "path=docs/a-b_c.md:1"])
    expect(argsFromPairs(pairs!, { type: "object", properties: { city: { type: "string" } } })).toEqual(args)
    expect(pairsFor({})).toEqual([])
  })

  test("values a shell would need quoted, or that are not text, give none", () => {
    expect(pairsFor({ text: "one two" })).toBeUndefined()
    expect(pairsFor({ text: "$HOME" })).toBeUndefined()
    expect(pairsFor({ text: "" })).toBeUndefined()
    expect(pairsFor({ days: 3 })).toBeUndefined()
    expect(pairsFor({ tags: ["a"] })).toBeUndefined()
    expect(pairsFor({ "odd key": "x" })).toBeUndefined()
  })

  test("text is said to stay text under every schema only when no property reads the pair as anything else", () => {
    const texts = ["Ada", "Ada Lovelace", "007", "5", "-5", "1e3", "-1.5E+3", "true", "false", "null", '"Ada"']
    texts.push('["a b"]', '{"a":1}', "[1,", "0x10", "Infinity", "", " 5", "2")
    for (const text of texts) {
      const readings = Object.keys(schema.properties).map((key) => {
        try {
          return argsFromPairs([`${key}=${text}`], schema)[key]
        } catch {
          return text // refused: the pair sends nothing else
        }
      })
      const same = readings.every((reading) => reading === text)
      // Under every schema: so when it says yes, this schema's properties agree.
      if (textUnderEverySchema(text)) expect(same, text).toBe(true)
    }
    for (const text of ["Ada", "Ada Lovelace", "007", "[1,", "0x10", "Infinity", "", " a"])
      expect(textUnderEverySchema(text), text).toBe(true)
    for (const text of ["5", "-5", "1e3", " 5", "true", "null", '"Ada"', '["a b"]', '{"a":1}'])
      expect(textUnderEverySchema(text), text).toBe(false)
  })
})

describe("warnings about key=value names", () => {
  const greet = {
    type: "object",
    properties: { name: { type: "string" }, loud: { type: "boolean" } },
    required: ["name"],
  }

  test("a name the schema does not list, and a required one no pair gave, are warned about by code", () => {
    expect(pairWarnings("greet", ["nmae"], greet).map((warning) => [warning.code, warning.severity])).toEqual([
      ["UNKNOWN_ARGUMENT", "warning"],
      ["MISSING_ARGUMENT", "warning"],
    ])
    expect(pairWarnings("greet", ["name", "loud"], greet)).toEqual([])
  })

  test("a schema that takes other keys, or none known, warns about no name", () => {
    expect(pairWarnings("open", ["anything"], { ...greet, required: [], additionalProperties: {} })).toEqual([])
    expect(pairWarnings("open", ["anything"], undefined)).toEqual([])
  })
})
