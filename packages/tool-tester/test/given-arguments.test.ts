// Arguments given already parsed stand for a model's call, whose text is their JSON. Observed on
// opencode 1.18.34 with `tool-tester e2e` (a script's `args` is sent as its JSON text): a call whose
// arguments hold a `__proto__` key, or a `constructor` object with a `prototype` key, at any depth,
// is rerouted to `invalid` with "Object contains forbidden prototype property", and a repaired
// name fails unrun. runTool, `run --args` and `run key=value` used to pass such keys to the tool.

import { describe, expect, test } from "vitest"
import { runTool } from "../src/index.ts"
import { opencode, runCli } from "./helpers.ts"
import { loadedUnder, tmpProject, toolSource } from "./support/tmp-project.ts"

const echo = {
  ".opencode/tools/echo.ts": toolSource(
    "echoes its arguments",
    `return JSON.stringify(args) + " inherited=" + String(args.polluted)`,
  ),
}
const refused = (text: string, tool = "echo") =>
  `Invalid input for tool ${tool}: JSON parsing failed: Text: ${text}.\nError message: Object contains forbidden prototype property`

for (const engine of ["node", "bun"] as const) {
  const skip = engine === "bun" ? opencode.reason : undefined
  describe.skipIf(skip !== undefined)(`runTool under the ${engine} engine`, () => {
    test.each([
      [JSON.parse(`{"__proto__":{"polluted":1},"n":1}`), `{"__proto__":{"polluted":1},"n":1}`],
      [{ a: [{ ["__proto__"]: 1 }] }, `{"a":[{"__proto__":1}]}`],
      [{ constructor: { prototype: { x: 1 } } }, `{"constructor":{"prototype":{"x":1}}}`],
    ])("arguments holding a prototype key (%j) are rerouted to invalid, as opencode does", async (args, text) => {
      const { project } = await loadedUnder(engine, echo)
      const result = await runTool(project, "echo", args)
      expect(result).toMatchObject({ id: "invalid", rerouted: true, status: "completed", title: "Invalid Tool" })
      expect(result.output).toBe(`The arguments provided to the tool are invalid: ${refused(text)}`)
      expect(result.args).toEqual({ tool: "echo", error: refused(text) })
    })

    test("with a name in the wrong case, the call fails unrun with the same message", async () => {
      const { project } = await loadedUnder(engine, echo)
      const result = await runTool(project, "ECHO", JSON.parse(`{"__proto__":1}`))
      expect(result).toMatchObject({ id: "ECHO", status: "error", repaired: true, rerouted: false })
      expect(result.error?.code).toBe("ARGS_INVALID")
      expect(result.output).toBe(refused(`{"__proto__":1}`))
      expect(result.args).toBe(`{"__proto__":1}`)
    })

    test("a constructor without prototype, and __proto__ inside a string, reach the tool", async () => {
      const { project } = await loadedUnder(engine, echo)
      for (const args of [{ constructor: { x: 1 } }, { constructor: null }, { x: '"__proto__":' }]) {
        const result = await runTool(project, "echo", args)
        expect(result).toMatchObject({ id: "echo", rerouted: false, status: "completed" })
        expect(result.output).toBe(`${JSON.stringify(args)} inherited=undefined`)
      }
    })
  })
}

test("an object literal's __proto__ sets a prototype, which no model's JSON holds: the call reaches the tool", async () => {
  const { project } = await loadedUnder("node", echo)
  const result = await runTool(project, "echo", { __proto__: { polluted: 1 }, n: 1 })
  expect(result).toMatchObject({ id: "echo", rerouted: false, status: "completed" })
  // Under the node engine the tool gets the object as given, its prototype too.
  expect(result.output).toBe(`{"n":1} inherited=1`)
})

test("arguments with no JSON text at all (a cycle) do not reach the tool: no model's call can hold them", async () => {
  // They reached it under the node engine, and broke the bun engine's transport: refused under both
  // now (run-tool.test.ts).
  const { project } = await loadedUnder("node", {
    ".opencode/tools/cycle.ts": toolSource("a cycle", "return String(args.self === args)"),
  })
  const args: Record<string, unknown> = { n: 1 }
  args["self"] = args
  await expect(runTool(project, "cycle", args)).rejects.toMatchObject({ code: "USAGE", data: { option: "args" } })
})

describe("run, with the arguments as JSON or key=value pairs", { timeout: 60_000 }, () => {
  const files = {
    ...echo,
    ".opencode/tools/nest.ts": toolSource(
      "takes an object",
      "return JSON.stringify(args)",
      "{ a: tool.schema.record(tool.schema.string(), tool.schema.unknown()) }",
    ),
  }
  test.each([
    ["echo", ["--args", `{"__proto__":{"polluted":1},"n":1}`], `{"__proto__":{"polluted":1},"n":1}`],
    ["echo", ["__proto__=polluted", "n=1"], `{"__proto__":"polluted","n":"1"}`],
    ["nest", ['a={"__proto__":{}}'], `{"a":{"__proto__":{}}}`],
  ])("%s %j, holding __proto__, reroutes the call to invalid (exit 6)", async (tool, args, text) => {
    const directory = tmpProject(files)
    const result = await runCli(["run", tool, ...args, "--dir", directory, "--no-global", "--json"])
    expect(result.exitCode).toBe(6)
    const json = JSON.parse(result.stdout) as { id: string; rerouted: boolean; output: string }
    expect(json).toMatchObject({ id: "invalid", rerouted: true })
    expect(json.output).toBe(`The arguments provided to the tool are invalid: ${refused(text, tool)}`)
  })
})
