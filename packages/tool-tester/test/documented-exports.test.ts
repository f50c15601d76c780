// Every function, class and value a user can import, and every matcher, is named in the library's
// reference, docs/testing-a-tool.md: a public export that no page names shows up in an editor's
// completion with nothing to say what it does, or that it is meant to be used.
import { readFileSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { expect, test } from "vitest"
import * as main from "../src/index.ts"
import * as e2e from "../src/e2e/index.ts"
import * as fuzz from "../src/fuzz/index.ts"
import * as lint from "../src/lint/index.ts"
import * as vitestEntry from "../src/vitest/index.ts"
import { toolTesterMatchers } from "../src/vitest/matchers.ts"

const reference = readFileSync(
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "docs", "testing-a-tool.md"),
  "utf8",
)

/** Named as code: `name`, `name(...)` or `name.member`. */
const named = (name: string) => new RegExp(`\`${name}[\`(.]`).test(reference)

test("docs/testing-a-tool.md names every runtime export of every entry point, and every matcher", () => {
  const entries = { ".": main, "./e2e": e2e, "./fuzz": fuzz, "./lint": lint, "./vitest": vitestEntry }
  const unnamed = Object.entries(entries).flatMap(([entry, exports]) =>
    Object.keys(exports)
      .filter((name) => !named(name))
      .map((name) => `${entry}: ${name}`),
  )
  expect(unnamed).toEqual([])
  expect(Object.keys(toolTesterMatchers).filter((matcher) => !named(matcher))).toEqual([])
})
