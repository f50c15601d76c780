// `key=value` pairs: `__proto__` is an ordinary key, as it is in the JSON a model sends.
import { expect, test } from "vitest"
import { argsFromPairs } from "../../src/tasks/key-value-args.ts"

test("__proto__=value is an own key of the arguments, and the prototype stays Object's", () => {
  const args = argsFromPairs(["__proto__=polluted", "name=x"], { properties: { name: { type: "string" } } })
  expect(Object.keys(args)).toEqual(["__proto__", "name"])
  expect(Object.getPrototypeOf(args)).toBe(Object.prototype)
  expect(JSON.stringify(args)).toBe(JSON.stringify(JSON.parse('{"__proto__":"polluted","name":"x"}')))
})

test("__proto__ is read as the schema's own __proto__ property says, and as text when it lists none", () => {
  const schema = JSON.parse('{"properties":{"__proto__":{"type":"number"}}}')
  expect(Object.getOwnPropertyDescriptor(argsFromPairs(["__proto__=5"], schema), "__proto__")?.value).toBe(5)
  expect(Object.getOwnPropertyDescriptor(argsFromPairs(["constructor=5"], {}), "constructor")?.value).toBe("5")
})
