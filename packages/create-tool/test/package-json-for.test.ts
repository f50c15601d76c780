import { expect, test } from "vitest"
import { mergePackageJson } from "../src/package-json.ts"
import { projectPackageJson } from "../src/package-json-for.ts"

const template = {
  private: true,
  scripts: { test: "vitest run", typecheck: "tsc --noEmit" },
  devDependencies: { "@opencode-ai/tool-tester": "^0.1.0", vitest: "^4.1.12" },
}

test("a project's test script is `test` by default, in the template's place among the scripts", () => {
  const additions = projectPackageJson(template, { language: "ts", test: true })
  expect(Object.entries(additions["scripts"] as object)).toEqual([
    ["test", "vitest run"],
    ["typecheck", "tsc --noEmit"],
  ])
})

test("merged beside a test script of the user's, the test's script under its own name keeps theirs and adds ours", () => {
  const additions = projectPackageJson(template, { language: "ts", test: true, testScript: "test:tools" })
  expect(additions["scripts"]).toEqual({ "test:tools": "vitest run", typecheck: "tsc --noEmit" })
  const merged = mergePackageJson({ scripts: { test: "node --test" } }, additions)
  expect(merged.packageJson["scripts"]).toEqual({
    test: "node --test",
    "test:tools": "vitest run",
    typecheck: "tsc --noEmit",
  })
  expect(merged.kept).toEqual([])
})

test("without a test there is no test script, under any name", () => {
  const additions = projectPackageJson(template, { language: "js", test: false, testScript: "test:tools" })
  expect(additions["scripts"]).toBeUndefined()
  expect(additions["devDependencies"]).toBeUndefined()
})
