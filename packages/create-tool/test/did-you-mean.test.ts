import { expect, test } from "vitest"
import { closestMatch } from "../src/did-you-mean.ts"

const names = ["dir", "global", "plugin", "template", "force", "js", "no-test"]

test.each([
  ["forse", "force"],
  ["tempalte", "template"],
  ["Plugin", "plugin"],
  ["dri", "dir"],
  ["no-tests", "no-test"],
])("finds %s -> %s", (word, name) => {
  expect(closestMatch(word, names)).toBe(name)
})

test.each(["rf", "bogus", "x", "", "globalize"])("finds nothing close to %j", (word) => {
  expect(closestMatch(word, names)).toBeUndefined()
})
