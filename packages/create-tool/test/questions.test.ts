import prompts from "prompts"
import { afterEach, expect, test } from "vitest"
import { parseArguments } from "../src/parse-args.ts"
import { askQuestions, confirm } from "../src/questions.ts"
import { listTemplates } from "../src/templates.ts"
import { templatesDirectory } from "./helpers.ts"

const context = async () => ({
  templates: await listTemplates(templatesDirectory),
  directory: "/work/app",
  projectDirectory: "/work/app",
  globalDirectory: "/home/me/.config/opencode",
})

/** An injected Error makes prompts cancel: a test fails with CANCELLED if it asks one question too many. */
const tooMany = new Error("one question too many")

afterEach(() => {
  ;(prompts as unknown as { _injected?: unknown[] | undefined })._injected = undefined
})

test("asks every question when no option is given", async () => {
  prompts.inject(["project", "math", "python", "js", "add, multiply", "Counts words", true, tooMany])
  expect(await askQuestions(parseArguments([]), await context())).toEqual({
    name: "math",
    location: "project",
    toolName: undefined,
    template: "python",
    language: "js",
    exports: ["add", "multiply"],
    description: "Counts words",
    test: true,
  })
})

test("an empty exports answer means one default export", async () => {
  prompts.inject(["global", "hello", "default", "ts", "", "Greets", false, tooMany])
  expect(await askQuestions(parseArguments([]), await context())).toMatchObject({
    location: "global",
    exports: undefined,
    test: false,
  })
})

test("asks nothing when every question has its option", async () => {
  prompts.inject([tooMany])
  const args = parseArguments([
    "hello",
    "--plugin",
    "--tool-name",
    "greet",
    "-t",
    "shell",
    "--js",
    "--exports",
    "run",
    "--description",
    "Runs",
  ])
  expect(await askQuestions({ ...args, test: false }, await context())).toEqual({
    name: "hello",
    location: "plugin",
    toolName: "greet",
    template: "shell",
    language: "js",
    exports: ["run"],
    description: "Runs",
    test: false,
  })
})

test("a plugin gets a tool name question of its own; the exports question names that tool", async () => {
  prompts.inject(["plugin", "@me/opencode-weather", "forecast", "default", "ts", "today", "d", true, tooMany])
  expect(await askQuestions(parseArguments([]), await context())).toMatchObject({
    name: "@me/opencode-weather",
    location: "plugin",
    toolName: "forecast",
    exports: ["today"],
  })
})

test("asks again for a plugin tool name that is the entry module's, index", async () => {
  prompts.inject(["forecast", "", tooMany])
  const args = parseArguments([
    "opencode-weather",
    "--plugin",
    "--tool-name",
    "index",
    "-t",
    "default",
    "--js",
    "--description",
    "d",
  ])
  expect(await askQuestions({ ...args, test: false }, await context())).toMatchObject({ toolName: "forecast" })
})

test("--dir answers where the tool goes: the project", async () => {
  prompts.inject(["hello", "default", "ts", "", "d", true, tooMany])
  expect(await askQuestions(parseArguments(["--dir", "app"]), await context())).toMatchObject({
    name: "hello",
    location: "project",
  })
})

test("asks again for an option whose value is invalid", async () => {
  prompts.inject(["fixed-name", "default", "x", tooMany])
  const args = parseArguments(["../bad", "--global", "--template", "rust", "--exports", "a-b", "--description", "d"])
  expect(await askQuestions({ ...args, js: true, test: false }, await context())).toMatchObject({
    name: "fixed-name",
    template: "default",
    exports: ["x"],
  })
})

test("Ctrl-C is a CANCELLED error", async () => {
  prompts.inject([new Error("ctrl-c")])
  await expect(askQuestions(parseArguments([]), await context())).rejects.toMatchObject({
    code: "CANCELLED",
    message: "Operation cancelled",
  })
})

test("confirm answers the question", async () => {
  prompts.inject([true])
  expect(await confirm("Overwrite?")).toBe(true)
})
