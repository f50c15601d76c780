import { describe, expect, test } from "vitest"
import { callTool, loadTools } from "../src/index.ts"
import { isolatedEnvironment, tmpProject, toolSource } from "./support/tmp-project.ts"

async function project(files: Record<string, string>) {
  const { env, home } = isolatedEnvironment()
  return loadTools({ directory: tmpProject(files), env, home })
}

const tools = {
  ".opencode/tools/validator.ts": toolSource("v", "return 'validator got ' + JSON.stringify(args)"),
  ".opencode/tools/MyTool.ts": toolSource("m", "return 'MyTool ran'"),
}

describe("a model's raw call", () => {
  test("in the wrong case runs the lowercase tool with the same arguments", async () => {
    const loaded = await project(tools)
    const result = await callTool(loaded, { name: "VALIDATOR", rawArguments: `{"x":1}` })
    expect(result).toMatchObject({
      name: "VALIDATOR",
      id: "validator",
      repaired: true,
      rerouted: false,
      output: `validator got {"x":1}`,
    })
  })

  test("is not repaired when only a mixed-case tool matches", async () => {
    const loaded = await project(tools)
    const result = await callTool(loaded, { name: "mytool", rawArguments: "{}" })
    expect(result).toMatchObject({ id: "invalid", rerouted: true, status: "completed", title: "Invalid Tool" })
    expect((await callTool(loaded, { name: "MyTool", rawArguments: "{}" })).output).toBe("MyTool ran")
  })

  test("to an unknown tool is rerouted to invalid with the sorted list of every tool", async () => {
    const loaded = await project(tools)
    const result = await callTool(loaded, { name: "nonexistent_tool", rawArguments: "{}" })
    expect(result.output).toBe(
      "The arguments provided to the tool are invalid: Model tried to call unavailable tool 'nonexistent_tool'. Available tools: bash, edit, glob, grep, invalid, MyTool, read, skill, task, todowrite, validator, webfetch, write.",
    )
    expect(result.metadata).toEqual({ truncated: false })
    expect(result.args).toEqual({
      tool: "nonexistent_tool",
      error:
        "Model tried to call unavailable tool 'nonexistent_tool'. Available tools: bash, edit, glob, grep, invalid, MyTool, read, skill, task, todowrite, validator, webfetch, write.",
    })
  })

  test("with arguments that are not JSON is rerouted to invalid; an empty string means {}", async () => {
    const loaded = await project(tools)
    const broken = await callTool(loaded, { name: "validator", rawArguments: "{not json" })
    expect(broken.id).toBe("invalid")
    expect(broken.output).toMatch(
      /^The arguments provided to the tool are invalid: Invalid input for tool validator: JSON parsing failed: Text: \{not json\.\nError message: /,
    )
    expect((await callTool(loaded, { name: "validator", rawArguments: "" })).output).toBe("validator got {}")
  })

  test("in the wrong case with arguments that are not JSON fails unrun instead of going to invalid", async () => {
    const loaded = await project(tools)
    const result = await callTool(loaded, { name: "VALIDATOR", rawArguments: "{broken" })
    expect(result).toMatchObject({ id: "VALIDATOR", status: "error", repaired: true, rerouted: false })
    expect(result.output).toBe(
      "Invalid input for tool validator: JSON parsing failed: Text: {broken.\nError message: JSON Parse error: Expected '}'",
    )
    expect(result.error?.code).toBe("ARGS_INVALID")
  })

  test("to invalid itself runs it directly, and checks its two string arguments", async () => {
    const loaded = await project(tools)
    expect(
      (await callTool(loaded, { name: "invalid", rawArguments: `{"tool":"x","error":"direct call"}` })).output,
    ).toBe("The arguments provided to the tool are invalid: direct call")
    const missing = await callTool(loaded, { name: "invalid", rawArguments: `{"tool":"x"}` })
    expect(missing.status).toBe("error")
    expect(missing.output).toBe(
      `The invalid tool was called with invalid arguments: SchemaError(Missing key\n  at ["error"]).\nPlease rewrite the input so it satisfies the expected schema.`,
    )
  })

  test("rerouted to invalid runs a custom invalid tool when the project defines one", async () => {
    const loaded = await project({
      ".opencode/tools/invalid.ts": toolSource("mine", "return 'custom invalid got ' + args.tool"),
    })
    const result = await callTool(loaded, { name: "ghost", rawArguments: "{}" })
    expect(result.output).toBe("custom invalid got ghost")
  })

  test("names apply_patch instead of edit and write for GPT-5 models", async () => {
    const loaded = await project(tools)
    const result = await callTool(loaded, { name: "ghost", rawArguments: "{}" }, { model: { modelID: "gpt-5" } })
    expect(result.output).toContain(
      "Available tools: apply_patch, bash, glob, grep, invalid, MyTool, read, skill, task, todowrite, validator, webfetch.",
    )
  })
})

// Observed on opencode 1.18.34 with `tool-tester e2e` (a tool `echo` that returns JSON.stringify of
// its arguments, one call per turn): the AI SDK refuses parsed arguments that hold a `__proto__` key,
// or a `constructor` object with a `prototype` key, anywhere, and the call is rerouted as for bad JSON.
describe("arguments with a prototype key", () => {
  const echo = {
    ".opencode/tools/echo.ts": toolSource("echoes its arguments", "return JSON.stringify(args)"),
  }
  const rerouted = (text: string) =>
    `The arguments provided to the tool are invalid: Invalid input for tool echo: JSON parsing failed: Text: ${text}.\nError message: Object contains forbidden prototype property`

  test.each([
    `{"__proto__":{"polluted":1},"n":1}`,
    `{"a":{"__proto__":{}}}`,
    `{"constructor":{"prototype":{"x":1}}}`,
    `[{"__proto__":1}]`,
    `{"\\u005f_proto__":{"polluted":1}}`,
    `{"__proto__" :1}`,
    `{"a":[{"constructor":{"prototype":null}}]}`,
    `{"__proto__":null}`,
    `{"\\u0063onstructor":{"prototype":1}}`,
    `{"a":{"b":{"c":[[{"__proto__":1}]]}}}`,
  ])("%s is rerouted to invalid", async (rawArguments) => {
    const result = await callTool(await project(echo), { name: "echo", rawArguments })
    expect(result).toMatchObject({ id: "invalid", rerouted: true, status: "completed", title: "Invalid Tool" })
    expect(result.output).toBe(rerouted(rawArguments))
  })

  test.each([
    [`{"constructor":{"x":1}}`, `{"constructor":{"x":1}}`],
    [`{"constructor":null}`, `{"constructor":null}`],
    [`{"constructor":5}`, `{"constructor":5}`],
    [`{"constructor":"s"}`, `{"constructor":"s"}`],
    [`{"x":"\\"__proto__\\":"}`, `{"x":"\\"__proto__\\":"}`],
  ])("%s reaches the tool", async (rawArguments, received) => {
    const result = await callTool(await project(echo), { name: "echo", rawArguments })
    expect(result).toMatchObject({ id: "echo", rerouted: false, status: "completed", output: received })
  })

  test("in the wrong case fails unrun with the same message", async () => {
    const result = await callTool(await project(echo), { name: "ECHO", rawArguments: `{"__proto__":1}` })
    expect(result).toMatchObject({ id: "ECHO", status: "error", repaired: true, rerouted: false })
    expect(result.output).toBe(
      `Invalid input for tool echo: JSON parsing failed: Text: {"__proto__":1}.\nError message: Object contains forbidden prototype property`,
    )
  })

  test("values of the wrong type, extra keys and null reach execute as sent; no default is applied", async () => {
    const loaded = await project({
      ".opencode/tools/echo.ts": toolSource(
        "echoes its arguments",
        "return JSON.stringify(args)",
        `{ n: tool.schema.number(), b: tool.schema.boolean(), opt: tool.schema.string().optional(), d: tool.schema.number().default(7), c: tool.schema.coerce.number().optional(), t: tool.schema.string().trim().optional() }`,
      ),
    })
    const sent = `{"n":"5","b":"true","extra":1,"opt":null,"c":"3","t":"  pad  "}`
    expect((await callTool(loaded, { name: "echo", rawArguments: sent })).output).toBe(sent)
    expect((await callTool(loaded, { name: "echo", rawArguments: "{}" })).output).toBe("{}")
    expect((await callTool(loaded, { name: "echo", rawArguments: `{"n":1,"n":2,"b":false}` })).output).toBe(
      `{"n":2,"b":false}`,
    )
  })
})
