import { describe, expect, test } from "vitest"
import { stringifyKeepingNegativeZero } from "../src/_negative-zero-json.ts"

describe("JSON text that keeps -0", () => {
  test("writes -0 as -0 at any depth, and reads back as -0", () => {
    const text = stringifyKeepingNegativeZero({ n: -0, list: [0, -0], nested: { m: -0 }, zero: 0 })
    expect(text).toBe('{"n":-0,"list":[0,-0],"nested":{"m":-0},"zero":0}')
    expect(Object.is((JSON.parse(text!) as { n: number }).n, -0)).toBe(true)
    expect(stringifyKeepingNegativeZero(-0)).toBe("-0")
  })

  test("writes everything else as JSON.stringify does", () => {
    for (const value of [{ n: 0, s: "-0" }, [1, "a", null], { d: new Date(0), skipped: undefined }, undefined, "x"])
      expect(stringifyKeepingNegativeZero(value)).toBe(JSON.stringify(value))
    expect(() => stringifyKeepingNegativeZero({ big: 1n })).toThrow()
  })

  test("a string of the tool's that looks like the marker it uses stays the string", () => {
    const value = { text: "\u0000-0", quoted: '"\u0000-0"', other: "\u0000-0 0", n: -0 }
    const read = JSON.parse(stringifyKeepingNegativeZero(value)!) as typeof value
    expect(read).toEqual(value)
    expect(Object.is(read.n, -0)).toBe(true)
  })
})
