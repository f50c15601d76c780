import { readFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, test } from "vitest"
import { jsonSafe, MAX_DEPTH, MAX_ITEMS, MAX_STRING, safeStringify } from "../src/_json-safe.ts"
import { restoreBuiltins } from "../src/_pristine.ts"
import { packageRoot } from "./helpers.ts"

describe("reports of user values", () => {
  test("nesting deeper than 100 levels is cut with a marker, not a stack overflow", () => {
    let value: Record<string, unknown> = { leaf: true }
    for (let level = 0; level < 5000; level++) value = { next: value }
    const text = safeStringify(value)
    expect(text).toContain('"[cut: deeper than 100 levels]"')
    expect(text.split('"next"')).toHaveLength(101)
  })

  test("long strings, long arrays and objects with many keys end with a marker saying what was left out", () => {
    const long = "x".repeat(MAX_STRING + 5)
    expect(jsonSafe(long)).toBe(`${"x".repeat(MAX_STRING)}[cut: 5 more characters]`)
    const items = jsonSafe(new Array(MAX_ITEMS + 3).fill(1)) as unknown[]
    expect(items).toHaveLength(MAX_ITEMS + 1)
    expect(items[MAX_ITEMS]).toBe("[cut: 3 more items]")
    const keys = jsonSafe(Object.fromEntries(Array.from({ length: MAX_ITEMS + 2 }, (_, index) => [`k${index}`, index])))
    expect((keys as Record<string, unknown>)["[cut]"]).toBe("2 more keys")
  })

  test("the cuts are documented with the limits applied, for the CLI's run and the library's bun engine", () => {
    // A page wraps its lines anywhere: read it as one line.
    const page = (name: string) =>
      readFileSync(path.join(packageRoot, "..", "..", "docs", name), "utf8").replace(/\s+/g, " ")
    const limits = [
      `string longer than ${MAX_STRING / 2 ** 20} MiB (${MAX_STRING.toLocaleString("en-US")} UTF-16 code units`,
      "`[cut: N more characters]`",
      `array keeps ${MAX_ITEMS.toLocaleString("en-US")} items`,
      `object keeps ${MAX_ITEMS.toLocaleString("en-US")} keys`,
      `deeper than ${MAX_DEPTH} levels`,
    ]
    for (const name of ["cli.md", "testing-a-tool.md"]) {
      for (const limit of limits) expect(page(name), `${name}: ${limit}`).toContain(limit)
    }
  })

  test("cycles, bigints and a class's own toJSON are written; functions and symbols are left out", () => {
    const cyclic: Record<string, unknown> = { n: 10n, when: new Date(0), fn: () => 1, s: Symbol("s") }
    cyclic["self"] = cyclic
    expect(safeStringify(cyclic)).toBe('{"n":"10n","when":"1970-01-01T00:00:00.000Z","self":"[Circular]"}')
  })

  test("a tool's changes to the built-ins do not change the report, and are put back and named", () => {
    const stringify = JSON.stringify
    try {
      Object.defineProperty(Object.prototype, "toJSON", { value: () => "polluted", configurable: true, writable: true })
      Array.prototype.map = () => {
        throw new Error("replaced")
      }
      JSON.stringify = () => "replaced"
      expect(safeStringify({ list: [1, 2], nested: { a: "b" } })).toBe('{"list":[1,2],"nested":{"a":"b"}}')
      expect(restoreBuiltins().sort()).toEqual(["Array.prototype.map", "JSON.stringify", "Object.prototype.toJSON"])
      expect(JSON.stringify).toBe(stringify)
      expect([1, 2].map((n) => n * 2)).toEqual([2, 4])
      expect("toJSON" in {}).toBe(false)
      expect(restoreBuiltins()).toEqual([])
    } finally {
      JSON.stringify = stringify
      restoreBuiltins()
    }
  })
})
