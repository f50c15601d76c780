import { expect, test } from "vitest"
import { formatPackageJson, mergePackageJson, omitEntries, parsePackageJson } from "../src/package-json.ts"

test("merging adds what is missing and keeps what is there", () => {
  const existing = {
    name: "mine",
    scripts: { test: "node --test" },
    dependencies: { "@opencode-ai/plugin": "1.18.34" },
  }
  const additions = {
    type: "module",
    scripts: { test: "vitest run", typecheck: "tsc --noEmit" },
    dependencies: { "@opencode-ai/plugin": "^1.18.33" },
    devDependencies: { vitest: "^4.1.12" },
  }
  const { packageJson, kept } = mergePackageJson(existing, additions)
  expect(packageJson).toEqual({
    name: "mine",
    type: "module",
    scripts: { test: "node --test", typecheck: "tsc --noEmit" },
    dependencies: { "@opencode-ai/plugin": "1.18.34" },
    devDependencies: { vitest: "^4.1.12" },
  })
  expect(kept).toEqual(["scripts.test", "dependencies.@opencode-ai/plugin"])
})

test("merging keeps a different scalar and says so", () => {
  expect(mergePackageJson({ type: "commonjs" }, { type: "module" })).toEqual({
    packageJson: { type: "commonjs" },
    kept: ["type"],
  })
})

test("omitEntries removes entries and objects left empty", () => {
  const packageJson = { scripts: { test: "x" }, devDependencies: { a: "1", "@types/node": "2" }, types: "t" }
  expect(omitEntries(packageJson, ["scripts.test", "devDependencies.@types/node", "types"])).toEqual({
    devDependencies: { a: "1" },
  })
})

test("package.json is written as npm writes it", () => {
  expect(formatPackageJson({ a: 1 })).toBe('{\n  "a": 1\n}\n')
})

test("a package.json replaced keeps its indent, line ends, byte order mark and final newline, as npm keeps them", () => {
  const merged = { a: 1, b: { c: 2 } }
  expect(formatPackageJson(merged, '{\r\n    "a": 1\r\n}\r\n')).toBe(
    '{\r\n    "a": 1,\r\n    "b": {\r\n        "c": 2\r\n    }\r\n}\r\n',
  )
  expect(formatPackageJson(merged, '{\n\t"a": 1\n}')).toBe('{\n\t"a": 1,\n\t"b": {\n\t\t"c": 2\n\t}\n}')
  expect(formatPackageJson({ a: 1 }, '\uFEFF{\n  "a": 1\n}\n')).toBe('\uFEFF{\n  "a": 1\n}\n')
  // One line: the two-space indent.
  expect(formatPackageJson({ a: 1 }, '{"a":0}\n')).toBe('{\n  "a": 1\n}\n')
})

test("a package.json that starts with a byte order mark is read, as npm reads it", () => {
  expect(parsePackageJson('\uFEFF{ "name": "x" }', "/x/package.json")).toEqual({ name: "x" })
})

test("an unparsable package.json is an INVALID_PACKAGE_JSON error", () => {
  expect(() => parsePackageJson("{ nope", "/x/package.json")).toThrow(
    expect.objectContaining({ code: "INVALID_PACKAGE_JSON", message: expect.stringContaining("/x/package.json") }),
  )
  expect(() => parsePackageJson("[]", "/x/package.json")).toThrow(
    expect.objectContaining({ code: "INVALID_PACKAGE_JSON" }),
  )
})
