import { builtinModules } from "node:module"
import { expect, test } from "vitest"
import { npmPackageNameProblem } from "../src/npm-package-name.ts"

// The cases of validate-npm-package-name 8.0.0's own test/index.js: what it finds valid for new
// packages has no problem here, and everything else has one.

const longest =
  "ifyouwanttogetthesumoftwonumberswherethosetwonumbersarechosenbyfindingthelargestoftwooutofthreenumbersandsquaringthemwhichismultiplyingthembyitselfthenyoushouldinputthreenumbersintothisfunctionanditwilldothatforyou"

test.each([
  "validate-npm-package-name",
  "some-package",
  "example.com",
  "under_score",
  "period.js",
  "123numeric",
  "@npm/thingy",
  "@user/node_modules",
  "@user/-package",
  "@user/_package",
  "@user/http",
  longest,
])("accepts %s, as npm does", (name) => {
  expect(npmPackageNameProblem(name)).toBeUndefined()
})

test.each([
  ["crazy!", 'contains "!": npm refuses'],
  ["@npm-zors/money!time.js", 'contains "!"'],
  ["", "empty"],
  [".start-with-period", 'starts with "."'],
  ["@npm/.", 'starts with "."'],
  ["@npm/..", 'starts with "."'],
  ["@npm/.package", 'starts with "."'],
  ["_start-with-underscore", 'starts with "_"'],
  ["-start-with-hyphen", 'starts with "-"'],
  ["--start-with-double-hyphen", 'starts with "-"'],
  ["contain:colons", 'contains ":", which is not URL-safe'],
  [" leading-space", "starts or ends with a space"],
  ["trailing-space ", "starts or ends with a space"],
  ["s/l/a/s/h/e/s", 'contains "/", which is not URL-safe'],
  ["node_modules", "is a name npm reserves"],
  ["Node_Modules", "is a name npm reserves"],
  ["favicon.ico", "is a name npm reserves"],
  ["http", "Node.js core module"],
  ["process", "Node.js core module"],
  [`${longest}-`, "npm accepts at most 214"],
  ["CAPITAL-LETTERS", "has capital letters: npm package names are lowercase, such as capital-letters."],
  ["caf\u00e9", 'contains "\u00e9", which is not URL-safe'],
])("refuses %j: %s", (name, reason) => {
  expect(npmPackageNameProblem(name)).toContain(reason)
})

test("refuses every core module name of this Node.js", () => {
  for (const name of builtinModules) expect(npmPackageNameProblem(name), name).toBeDefined()
})
