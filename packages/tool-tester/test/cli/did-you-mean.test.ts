import { describe, expect, test } from "vitest"
import { closestMatch, editDistance } from "../../src/did-you-mean.ts"

describe("did you mean", () => {
  test("edit distance counts inserts, deletes, replacements and swapped neighbours as one each", () => {
    expect(editDistance("list", "list")).toBe(0)
    expect(editDistance("lst", "list")).toBe(1)
    expect(editDistance("lsit", "list")).toBe(1)
    expect(editDistance("wether", "weather")).toBe(1)
    expect(editDistance("kitten", "sitting")).toBe(3)
    expect(editDistance("", "abc")).toBe(3)
  })

  test("the closest candidate is suggested when it is close for its length", () => {
    expect(closestMatch("lst", ["list", "schema", "run", "doctor", "e2e"])).toBe("list")
    expect(closestMatch("no-globl", ["dir", "no-global", "json"])).toBe("no-global")
    expect(closestMatch("jsn", ["dir", "no-global", "json"])).toBe("json")
    expect(closestMatch("wether", ["bash", "weather", "write"])).toBe("weather")
    expect(closestMatch("Weathr", ["weather"])).toBe("weather")
    // Two letters of a three-letter command: one left out.
    expect(closestMatch("rn", ["list", "schema", "run", "doctor", "fuzz", "e2e", "dev", "preflight"])).toBe("run")
  })

  test("nothing is suggested for a different word or a very short one", () => {
    expect(closestMatch("deploy", ["list", "schema", "run", "doctor", "e2e"])).toBeUndefined()
    expect(closestMatch("city", ["dir", "plugin", "json", "tool"])).toBeUndefined()
    expect(closestMatch("x", ["a", "b"])).toBeUndefined()
    expect(closestMatch("ab", ["cb", "list"])).toBeUndefined()
    expect(closestMatch("anything", [])).toBeUndefined()
  })
})
