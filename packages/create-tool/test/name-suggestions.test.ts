import { expect, test } from "vitest"
import { packageNameProblem } from "../src/names.ts"

// The interactive name check shows a name "such as" the one typed; pasted back, it must pass.

test.each([
  "My Weather",
  "Weather Tool!",
  "MyWeather",
  "@me/My Tool",
  "@me/My.Weather",
  "Open Code: Weather (beta)",
  "2 Weather",
])("the name suggested for %j is accepted by the same check", (typed) => {
  const problem = packageNameProblem(typed)
  expect(problem).toBeDefined()
  const suggestion = / such as (\S+?)\.$/.exec(problem!)?.[1]
  expect(suggestion, problem).toBeDefined()
  expect(packageNameProblem(suggestion!), `${typed} -> ${suggestion}`).toBeUndefined()
})

test("My Weather is offered my-weather", () => {
  expect(packageNameProblem("My Weather")).toBe(
    '"My Weather" has capital letters: npm package names are lowercase, such as my-weather.',
  )
})
