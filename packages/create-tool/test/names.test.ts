import { describe, expect, test } from "vitest"
import {
  builtinToolIds,
  defaultPluginToolName,
  exportNamesProblem,
  packageNameProblem,
  pluginExportName,
  pluginToolNameProblem,
  splitPackageName,
  toolId,
  toolNameProblem,
} from "../src/names.ts"

describe("toolNameProblem", () => {
  test.each(["hello", "my-tool", "my_tool", "_private", "MyTool", "a1", "x".repeat(64)])("accepts %s", (name) => {
    expect(toolNameProblem(name)).toBeUndefined()
  })

  test.each([
    ["", "empty"],
    ["   ", "empty"],
    ["../x", "is a path"],
    ["/abs/tool", "is a path"],
    ["a\\b", "is a path"],
    ["..", "is a path"],
    ["my.tool", 'contains "."'],
    ["my tool", 'contains " "'],
    ["tool:x", 'contains ":"'],
    ["héllo", 'contains "é"'],
    ["1tool", "must start with a letter or _"],
    ["-tool", "must start with a letter or _"],
    ["x".repeat(65), "at most 64"],
    ["con", "reserved file name on Windows"],
    ["LPT1", "reserved file name on Windows"],
    ["a\u202Eb", '"a\\u{202E}b" contains \\u{202E}, a character that does not show'],
    ["\u200B", "\\u{200B}, a character that does not show"],
    ["../\u202Ex", '"../\\u{202E}x" contains \\u{202E}'],
  ])("rejects %j: %s", (name, reason) => {
    expect(toolNameProblem(name)).toContain(reason)
  })
})

describe("exportNamesProblem", () => {
  test("accepts distinct identifiers", () => {
    expect(exportNamesProblem("math", ["add", "multiply", "_x", "Sum2"])).toBeUndefined()
  })

  test.each([
    [[], "is empty"],
    [["add", ""], "empty name"],
    [["add-one"], "JavaScript identifier"],
    [["2add"], "JavaScript identifier"],
    [["$x"], "JavaScript identifier"],
    [["default"], "default export"],
    [["delete"], "reserved word"],
    [["await"], "reserved word"],
    [["add", "add"], "given twice"],
    [["count", "Count"], 'Export names "count" and "Count" differ only in case'],
    [["tool"], "clashes with a name the template uses"],
    [["add\u2066"], 'Export name "add\\u{2066}" contains \\u{2066}'],
  ])("rejects %j", (names, reason) => {
    expect(exportNamesProblem("math", names, ["tool", "execFile"])).toContain(reason)
  })

  test("rejects an export whose tool id would pass 64 characters", () => {
    expect(exportNamesProblem("t".repeat(60), ["longer"])).toContain("at most 64")
  })
})

describe("packageNameProblem", () => {
  test.each(["opencode-weather", "@me/opencode-weather", "@my.org/tool_x"])("accepts %s", (name) => {
    expect(packageNameProblem(name)).toBeUndefined()
  })

  test.each([
    ["Weather", "capital letters"],
    ["@Me/weather", "invalid scope"],
    ["@me/../x", "is a path"],
    ["_weather", "npm package names cannot"],
    ["http", "Node.js core module"],
    ["my.plugin", 'contains "."'],
    ["", "empty"],
    ["node_modules", "is a name npm reserves"],
    ["favicon.ico", "is a name npm reserves"],
    [".hidden", 'starts with "."'],
    ["-weather", 'starts with "-"'],
    ["@me/.weather", 'starts with "."'],
    ["@me/node_modules", "node_modules folder, which package managers own"],
    ["@me", "a scope without a name: write @me/NAME"],
    ["@me/", '"@me/" is a scope without a name: write @me/NAME'],
    ["@me/wea(ther", 'contains "("'],
    ["a\u200Bb", '"a\\u{200B}b" contains \\u{200B}, a character that does not show'],
    ["@m\u202Ee/x", '"@m\\u{202E}e/x" contains \\u{202E}'],
    [`@${"a".repeat(210)}/weather`, "at most 214"],
  ])("rejects %j: %s", (name, reason) => {
    expect(packageNameProblem(name)).toContain(reason)
  })

  test("with --tool-name, the name is the package's only: npm's rules and a folder Windows can make", () => {
    expect(packageNameProblem("opencode-weather.js", { toolNameGiven: true })).toBeUndefined()
    expect(packageNameProblem("2-weather", { toolNameGiven: true })).toBeUndefined()
    expect(packageNameProblem("Weather", { toolNameGiven: true })).toContain("capital letters")
    expect(packageNameProblem("con", { toolNameGiven: true })).toContain("reserved file name on Windows")
    // With any extension too, and a final dot Windows would drop.
    expect(packageNameProblem("con.x", { toolNameGiven: true })).toContain("reserved file name on Windows")
    expect(packageNameProblem("@me/lpt1.tools", { toolNameGiven: true })).toContain("reserved file name on Windows")
    expect(packageNameProblem("foo.", { toolNameGiven: true })).toBe(
      '"foo." ends with a dot, which Windows drops from a folder\'s name (its folder would be foo): choose another name.',
    )
    expect(packageNameProblem("conman.x", { toolNameGiven: true })).toBeUndefined()
  })
})

test("toolId follows opencode: the file name for the default export, file_export otherwise", () => {
  expect(toolId("math", "default")).toBe("math")
  expect(toolId("math", "add")).toBe("math_add")
})

test("splitPackageName separates the scope", () => {
  expect(splitPackageName("@me/tool")).toEqual({ scope: "me", name: "tool" })
  expect(splitPackageName("tool")).toEqual({ name: "tool" })
})

test("pluginExportName joins the words of a name in PascalCase, then Plugin", () => {
  expect(pluginExportName("opencode-weather_now")).toBe("OpencodeWeatherNowPlugin")
})

test.each([
  ["weather.js", "WeatherJsPlugin"],
  ["x.y", "XYPlugin"],
  ["foo.", "FooPlugin"],
  ["2fa", "_2faPlugin"],
  ["2-fa", "_2FaPlugin"],
  ["-", "ToolPlugin"],
])("pluginExportName makes a JavaScript identifier of %s, a name npm allows: %s", (name, exportName) => {
  expect(pluginExportName(name)).toBe(exportName)
})

test("the built-in list holds the tools opencode 1.18 registers", () => {
  for (const id of ["bash", "read", "write", "edit", "glob", "grep", "task", "webfetch", "todowrite", "invalid"]) {
    expect(builtinToolIds).toContain(id)
  }
})

test.each([
  ["opencode-weather", "weather"],
  ["@me/opencode-weather", "weather"],
  ["@opencode/weather", "weather"],
  ["weather", "weather"],
  ["opencode-read", "opencode-read"],
  ["opencode-index", "opencode-index"],
  ["opencode-9lives", "opencode-9lives"],
  ["opencode-", "opencode-"],
  ["my-opencode-tool", "my-opencode-tool"],
])("a plugin named %s offers the tool id %s by default", (packageName, id) => {
  expect(defaultPluginToolName(packageName)).toBe(id)
})

test.each(["index", "Index", "INDEX"])("a plugin's tool name cannot be %s, its entry module's name", (name) => {
  expect(pluginToolNameProblem(name)).toBe(
    `Tool id "${name}" would name the tools' module src/${name}.ts (.js with --js), which is the plugin's entry module: choose another tool id with --tool-name, such as --tool-name my-tool.`,
  )
})

test("a plugin's tool name follows the tool name rules, and may contain index", () => {
  expect(pluginToolNameProblem("my.tool")).toBe(toolNameProblem("my.tool"))
  for (const name of ["indexer", "index_docs", "weather"]) expect(pluginToolNameProblem(name)).toBeUndefined()
})
