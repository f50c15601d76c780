import { expect, expectTypeOf, test } from "vitest"
import { definedFields } from "../src/_defined-fields.ts"

test("definedFields leaves out the undefined fields and keeps every other value, falsy ones too", () => {
  const fields = definedFields({ a: undefined, b: null, c: 0, d: false, e: "", f: "x" })
  expect(fields).toStrictEqual({ b: null, c: 0, d: false, e: "", f: "x" })
  expect("a" in fields).toBe(false)
})

test("a field that may be undefined becomes optional; one that may not stays required", () => {
  const maybe = undefined as number | undefined
  const fields = definedFields({ runs: maybe, name: "eval" })
  expectTypeOf(fields.name).toEqualTypeOf<string>()
  expectTypeOf(fields).toExtend<{ runs?: number }>()
  // Under exactOptionalPropertyTypes an optional field cannot be undefined: the spread type-checks.
  const options: { name: string; runs?: number } = { ...fields }
  expect(options).toStrictEqual({ name: "eval" })
})
