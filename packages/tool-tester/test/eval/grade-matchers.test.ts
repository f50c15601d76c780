import { describe, expect, test } from "vitest"
import { matchArgs, matchValue } from "../../src/eval-cases/match-args.ts"
import type { ValueMatcher } from "../../src/eval-cases/types.ts"

const matches = (matcher: ValueMatcher, value: unknown) => matchValue(matcher, value).match

describe("argument matchers", () => {
  test("JSON values match exactly", () => {
    expect(matches("Paris", "Paris")).toBe(true)
    expect(matches("Paris", "paris")).toBe(false)
    expect(matches(3, 3)).toBe(true)
    expect(matches(3, "3")).toBe(false)
    expect(matches(true, true)).toBe(true)
    expect(matches(false, 0)).toBe(false)
    expect(matches(null, null)).toBe(true)
    expect(matches(null, undefined)).toBe(false)
  })

  test("objects match partially: listed keys must match, others are free, nested alike", () => {
    const matcher: ValueMatcher = { city: "Paris", options: { units: "metric" } }
    expect(matches(matcher, { city: "Paris", days: 3, options: { units: "metric", lang: "fr" } })).toBe(true)
    expect(matches(matcher, { city: "Paris", options: { units: "imperial" } })).toBe(false)
    expect(matches(matcher, { city: "Paris" })).toBe(false)
    expect(matches(matcher, "Paris")).toBe(false)
    expect(matches(matcher, ["Paris"])).toBe(false)
  })

  test("arrays match element by element, with equal lengths", () => {
    expect(matches(["a", /^b/], ["a", "bee"])).toBe(true)
    expect(matches(["a", /^b/], ["a", "cee"])).toBe(false)
    expect(matches(["a"], ["a", "b"])).toBe(false)
    expect(matches([{ id: 1 }], [{ id: 1, name: "x" }])).toBe(true)
    expect(matches(["a"], "a")).toBe(false)
  })

  test("a RegExp or $regex matches strings only, from the start, even with the g flag", () => {
    expect(matches(/^par/i, "Paris")).toBe(true)
    expect(matches(/^par/i, 7)).toBe(false)
    expect(matches({ $regex: "^par", $flags: "i" }, "PARIS")).toBe(true)
    expect(matches({ $regex: "^par" }, "PARIS")).toBe(false)
    const global = /a/g
    expect(matches(global, "a")).toBe(true)
    expect(matches(global, "a")).toBe(true)
  })

  test("the arguments as a whole matched with $exact: those arguments and no other", () => {
    expect(matchArgs({ $exact: { city: "Bergen", days: 1 } }, { city: "Bergen", days: 1 }).match).toBe(true)
    expect(matchArgs({ $exact: { city: "Bergen" } }, { city: "Bergen", days: 1 }).match).toBe(false)
  })

  test("$exact matches by deep equality, extra keys failing", () => {
    expect(matches({ $exact: { a: 1 } }, { a: 1 })).toBe(true)
    expect(matches({ $exact: { a: 1 } }, { a: 1, b: 2 })).toBe(false)
    expect(matches({ $exact: [1, 2] }, [1, 2])).toBe(true)
  })

  test("$any matches any value that is present, null included, and not a missing key", () => {
    expect(matchArgs({ city: { $any: true } }, { city: null }).match).toBe(true)
    expect(matchArgs({ city: { $any: true } }, { city: "" }).match).toBe(true)
    expect(matchArgs({ city: { $any: true } }, {})).toEqual({
      match: false,
      path: "city",
      expected: "any",
      got: "nothing",
    })
  })

  test("a predicate gets the value and its true or false decides", () => {
    expect(matches((value) => typeof value === "number" && value > 2, 3)).toBe(true)
    expect(matches((value) => typeof value === "number" && value > 2, 1)).toBe(false)
    expect(matchArgs((args) => args["city"] === "Paris", { city: "Paris" }).match).toBe(true)
  })

  test("a predicate that returns anything but true or false fails, saying what it returned", () => {
    // Truthy values that are no answer: a found value where a test was meant.
    const found = (value: unknown) => (value as string).match(/par/i) as unknown as boolean
    expect(matchArgs({ city: found }, { city: "Paris" })).toEqual({
      match: false,
      path: "city",
      threw: 'the predicate returned ["Par"] (an array); a predicate must return true or false',
    })
    const returned = (result: unknown) => matchValue((() => result) as unknown as ValueMatcher, "x")
    expect(returned("yes")).toMatchObject({
      threw: 'the predicate returned "yes" (a string); a predicate must return true or false',
    })
    expect(returned({ ok: true })).toMatchObject({
      threw: "the predicate returned {ok: true} (an object); a predicate must return true or false",
    })
    expect(returned(1)).toMatchObject({
      threw: "the predicate returned 1 (a number); a predicate must return true or false",
    })
    expect(returned(undefined)).toMatchObject({
      threw: "the predicate returned undefined (no return?); a predicate must return true or false",
    })
    expect(returned(0)).toMatchObject({ match: false, threw: expect.stringContaining("returned 0 (a number)") })
  })

  test("a predicate that throws or returns a Promise is a failure that says so", () => {
    const threw = matchArgs(
      {
        city: () => {
          throw new TypeError("boom")
        },
      },
      { city: "x" },
    )
    expect(threw).toEqual({ match: false, path: "city", threw: "the predicate threw: boom" })
    const promised = matchValue((async () => true) as unknown as ValueMatcher, "x")
    expect(promised).toMatchObject({ match: false, threw: expect.stringContaining("returned a Promise") })
  })

  test("a mismatch names the path of the first difference and what was there", () => {
    expect(matchArgs({ days: [1, { at: "noon" }] }, { days: [1, { at: "night" }] })).toEqual({
      match: false,
      path: "days[1].at",
      expected: '"noon"',
      got: '"night"',
    })
    expect(matchArgs({ "first name": "Ann" }, { "first name": "Bob" })).toMatchObject({ path: '["first name"]' })
  })
})
