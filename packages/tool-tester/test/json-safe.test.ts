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

  test("a value whose reading throws (a getter, a Proxy's trap, a revoked Proxy) becomes a marker; the report never throws", () => {
    const revocable = Proxy.revocable({}, {})
    revocable.revoke()
    const revokedArray = Proxy.revocable([1, 2], {})
    revokedArray.revoke()
    const trap = (name: string) => () => {
      throw new Error(`${name} trap`)
    }
    const value = {
      nested: {
        kept: 1,
        get boom(): unknown {
          throw new Error("getter boom")
        },
      },
      revoked: revocable.proxy,
      revokedArray: revokedArray.proxy,
      ownKeys: new Proxy({}, { ownKeys: trap("ownKeys") }),
      get: new Proxy({ a: 1 }, { get: trap("get") }),
      describe: new Proxy({ a: 1 }, { getOwnPropertyDescriptor: trap("getOwnPropertyDescriptor") }),
      prototype: new Proxy({}, { getPrototypeOf: trap("getPrototypeOf") }),
      arrayLength: new Proxy([1, 2], {
        get: (target, key) => (key === "length" ? trap("length")() : Reflect.get(target, key)),
      }),
      arrayItem: new Proxy([1, 2], { get: (target, key) => (key === "1" ? trap("item")() : Reflect.get(target, key)) }),
      strangeLength: new Proxy([1], {
        get: (target, key) => (key === "length" ? { valueOf: trap("valueOf") } : Reflect.get(target, key)),
      }),
      thrownUnreadable: {
        get boom(): unknown {
          throw new Proxy({}, { get: trap("message") })
        },
      },
      thrownString: {
        get boom(): unknown {
          throw "plain"
        },
      },
    }
    expect(JSON.parse(safeStringify(value))).toEqual({
      nested: { kept: 1, boom: "[threw when read: getter boom]" },
      revoked: expect.stringMatching(/^\[threw when read: .*revoked.*\]$/),
      revokedArray: expect.stringMatching(/^\[threw when read: .*revoked.*\]$/),
      ownKeys: "[threw when read: ownKeys trap]",
      get: { a: "[threw when read: get trap]" },
      describe: "[threw when read: getOwnPropertyDescriptor trap]",
      prototype: "[threw when read: getPrototypeOf trap]",
      arrayLength: "[threw when read: length trap]",
      arrayItem: [1, "[threw when read: item trap]"],
      strangeLength: [],
      thrownUnreadable: { boom: "[threw when read: a value that cannot be read]" },
      thrownString: { boom: "[threw when read: plain]" },
    })
    expect(jsonSafe(revocable.proxy)).toMatch(/^\[threw when read: /)
  })

  test("an endless prototype chain (a Proxy's getPrototypeOf trap) is written, not walked forever", () => {
    const handler: ProxyHandler<object> = { getPrototypeOf: () => new Proxy({}, handler) }
    expect(safeStringify({ endless: new Proxy({ a: 1 }, handler) })).toBe('{"endless":{"a":1}}')
  })

  test("the marker of a value that throws when read is documented with the cuts", () => {
    const page = readFileSync(path.join(packageRoot, "..", "..", "docs", "cli.md"), "utf8").replace(/\s+/g, " ")
    expect(page.includes('`"[threw when read: <message>]"`'), "docs/cli.md names the marker").toBe(true)
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
