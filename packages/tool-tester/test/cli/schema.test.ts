import { describe, expect, test } from "vitest"
import { fixture, jsonError, rawControlCharacters, runCli } from "../helpers.ts"
import { tmpProject } from "../support/tmp-project.ts"

const basic = fixture("cli-basic")

type SchemaJson = {
  tools: Array<{ name: string; description: string; parameters: Record<string, any>; strict?: boolean }>
  diagnostics: Array<{ code: string }>
}

describe("tool-tester schema", { timeout: 60_000 }, () => {
  test("prints the custom tools exactly as opencode sends them", async () => {
    const result = await runCli(["schema", "--dir", basic, "--no-global", "--json"])
    expect(result.exitCode).toBe(0)
    const { tools } = JSON.parse(result.stdout) as SchemaJson
    expect(tools.map((tool) => tool.name)).toEqual(["greet", "math_add"])
    expect(tools[1]).toEqual({
      name: "math_add",
      description: "Adds two numbers",
      parameters: {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
      },
    })
  })

  test.each([
    [47, false],
    [48, true],
  ])(
    "a schema of %i nested objects is shown whole, or cut with a SCHEMA_CUT warning, never cut silently",
    async (levels, cut) => {
      const directory = tmpProject({
        ".opencode/tools/deep.ts": `import { tool } from "@opencode-ai/plugin"
let schema: any = tool.schema.string()
for (let index = 0; index < ${levels}; index++) schema = tool.schema.object({ inner: schema })
export default tool({ description: "deep", args: { root: schema }, async execute() { return "ok" } })
`,
      })
      const result = await runCli(["schema", "--dir", directory, "--no-global", "--json", "--engine", "node"])
      expect(result.exitCode).toBe(0)
      const { diagnostics } = JSON.parse(result.stdout) as SchemaJson
      expect(result.stdout.includes("[cut: deeper than 100 levels]")).toBe(cut)
      expect(diagnostics.map((diagnostic) => diagnostic.code)).toEqual(cut ? ["SCHEMA_CUT"] : [])
    },
  )

  test("--plugin adds the plugin's tools, as opencode would send them", async () => {
    const result = await runCli(
      ["schema", "--no-global", "--json", "--plugin", "./extra-plugin.ts", "--tool", "shout"],
      {
        cwd: basic,
      },
    )
    expect(result.exitCode).toBe(0)
    const { tools } = JSON.parse(result.stdout) as SchemaJson
    expect(tools).toMatchObject([{ name: "shout", description: "Shouts a word (from a plugin given with --plugin)" }])
  })

  test("--tool prints one tool", async () => {
    const result = await runCli(["schema", "--dir", basic, "--no-global", "--json", "--tool", "greet"])
    const { tools } = JSON.parse(result.stdout) as SchemaJson
    expect(tools.map((tool) => tool.name)).toEqual(["greet"])
    expect(tools[0]!.parameters["properties"].name).toEqual({ description: "Who to greet", type: "string" })
  })

  test("a tool id given without --tool (schema greet, as run and fuzz take it) says to give it with --tool", async () => {
    const result = await runCli(["schema", "greet", "--dir", basic, "--no-global", "--json"])
    expect(result.exitCode).toBe(1)
    expect(jsonError(result)).toEqual({
      code: "USAGE",
      message:
        "unexpected argument greet; to show only that tool, give it with --tool greet (see npx @opencode-ai/tool-tester schema --help)",
    })
  })

  test("--tool with a name that is not offered exits 1 and lists the custom tools", async () => {
    const result = await runCli(["schema", "--dir", basic, "--no-global", "--json", "--tool", "nope"])
    expect(result.exitCode).toBe(1)
    expect(jsonError(result)).toMatchObject({
      code: "TOOL_NOT_FOUND",
      message: expect.stringContaining("greet, math_add"),
    })
  })

  test("--provider @ai-sdk/openai applies opencode's OpenAI sanitiser and strict: false", async () => {
    const result = await runCli(["schema", "--dir", basic, "--no-global", "--json", "--provider", "@ai-sdk/openai"])
    const greet = (JSON.parse(result.stdout) as SchemaJson).tools[0]!
    expect(greet.strict).toBe(false)
    expect(greet.parameters["$schema"]).toBeUndefined()
    // The sanitiser drops minimum/maximum from the integer.
    expect(greet.parameters["properties"].times).toEqual({ type: "integer" })
  })

  test("--model with gemini in its id applies the Gemini fixes", async () => {
    const result = await runCli(["schema", "--dir", basic, "--no-global", "--json", "--model", "gemini-2.5-pro"])
    const greet = (JSON.parse(result.stdout) as SchemaJson).tools[0]!
    expect(greet.parameters["properties"].tags).toEqual({ type: "array", items: { type: "string" } })
    expect(result.exitCode).toBe(0)
  })

  test("without --json prints each tool's name, description and parameters", async () => {
    const result = await runCli(["schema", "--dir", basic, "--no-global", "--tool", "math_add"])
    expect(result.stdout).toContain("math_add\n  Adds two numbers\n  {")
    expect(result.stdout).toContain('"required": [')
  })

  test("exits 3 when one schema breaks the list, still printing the tools that convert", async () => {
    const result = await runCli(["schema", "--dir", fixture("cli-broken-schema"), "--no-global", "--json"])
    expect(result.exitCode).toBe(3)
    const payload = JSON.parse(result.stdout) as SchemaJson
    expect(payload.tools.map((tool) => tool.name)).toEqual(["fine"])
    expect(payload.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(["SCHEMA_UNREPRESENTABLE"])
    expect(jsonError(result).code).toBe("SCHEMA_UNREPRESENTABLE")
  })

  test("--tool naming the tool that breaks the list: none is offered, and the line says the error is why", async () => {
    const result = await runCli(["schema", "--dir", fixture("cli-broken-schema"), "--no-global", "--tool", "when"])
    expect(result.exitCode).toBe(3)
    expect(result.stdout).toBe(
      "No custom or plugin tool is offered to @ai-sdk/openai-compatible mock-model; the error below says why.\n",
    )
    expect(result.stderr).toContain("[SCHEMA_UNREPRESENTABLE]")
  })
})

describe.each(["bun", "node"])("tool-tester schema and list with terminal control characters (%s engine)", (engine) => {
  const directory = fixture("hostile/terminal-escapes")

  test("the human reports show a description's control characters escaped; --json keeps them", async () => {
    const common = ["--dir", directory, "--no-global", "--engine", engine]
    const schema = await runCli(["schema", ...common])
    expect(schema.exitCode).toBe(0)
    expect(rawControlCharacters(schema.stdout + schema.stderr)).toEqual([])
    expect(schema.stdout).toContain(String.raw`Returns text full of terminal control sequences\u001b[?1049h\u001b[?25l`)
    expect(schema.stdout).toContain(String.raw`\u202eevil\u202c`)
    const list = await runCli(["list", ...common])
    expect(list.exitCode).toBe(0)
    expect(rawControlCharacters(list.stdout + list.stderr)).toEqual([])
    const json = JSON.parse((await runCli(["schema", ...common, "--json"])).stdout) as SchemaJson
    expect(json.tools[0]!.description).toContain("\x1b[?1049h\x1b[?25l")
  })
})
