import { expect, test } from "vitest"
import { parseArguments } from "../src/parse-args.ts"

test("reads every option", () => {
  expect(
    parseArguments([
      "math",
      "--dir",
      "app",
      "--plugin",
      "--exports",
      "add, multiply",
      "--template",
      "python",
      "--js",
      "--description",
      "Does math",
      "--no-test",
      "--force",
      "--no-interactive",
    ]),
  ).toEqual({
    name: "math",
    dir: "app",
    global: false,
    plugin: true,
    exports: ["add", "multiply"],
    template: "python",
    js: true,
    description: "Does math",
    test: false,
    force: true,
    interactive: false,
    help: false,
    version: false,
  })
})

test("leaves what is not given undefined, so a terminal can ask for it", () => {
  expect(parseArguments([])).toMatchObject({
    name: undefined,
    dir: undefined,
    exports: undefined,
    template: undefined,
    description: undefined,
    test: true,
    interactive: undefined,
  })
})

test("--yes and -y mean --no-interactive; -t, -h and -v are short forms", () => {
  expect(parseArguments(["--yes"]).interactive).toBe(false)
  expect(parseArguments(["-y"]).interactive).toBe(false)
  expect(parseArguments(["-t", "shell"]).template).toBe("shell")
  expect(parseArguments(["-h"]).help).toBe(true)
  expect(parseArguments(["-v"]).version).toBe(true)
})

test.each([
  [["--bogus"], "USAGE", "Unknown option --bogus"],
  [["-x"], "USAGE", "Unknown option -x"],
  [["--dir"], "USAGE", "Option --dir needs a value"],
  [["--template", "--js"], "USAGE", "Option --template needs a value"],
  [["--js=yes"], "USAGE", "Option --js takes no value"],
  [["one", "two"], "USAGE", 'Unexpected argument "two"'],
  [["--global", "--plugin"], "CONFLICTING_OPTIONS", "--global and --plugin"],
  [["--global", "--dir", "x"], "CONFLICTING_OPTIONS", "--global and --dir"],
])("%j is a %s error", (argv, code, message) => {
  expect(() => parseArguments(argv)).toThrow(
    expect.objectContaining({ code, message: expect.stringContaining(message) }),
  )
})
