import { describe, expect, test } from "vitest"
import { fixture, jsonError, runCli, useTmpDir, writeFiles } from "../helpers.ts"
import { tmpProject, toolSource } from "../support/tmp-project.ts"

const basic = fixture("cli-basic")

type ListJson = {
  tools: Array<{ id: string; source: string; file?: string; export?: string; overrides?: string }>
  diagnostics: Array<{ code: string; severity: string; file?: string; message: string }>
}

describe("tool-tester list", { timeout: 60_000 }, () => {
  test("lists built-in and custom tools in opencode's order, with where each comes from", async () => {
    const result = await runCli(["list", "--dir", basic, "--no-global", "--json"])
    expect(result.exitCode).toBe(0)
    const listed = JSON.parse(result.stdout) as ListJson
    expect(listed.tools.map((tool) => tool.id)).toEqual([
      "bash",
      "edit",
      "glob",
      "greet",
      "grep",
      "math_add",
      "read",
      "skill",
      "task",
      "todowrite",
      "webfetch",
      "write",
    ])
    expect(listed.tools.find((tool) => tool.id === "math_add")).toEqual({
      id: "math_add",
      source: "file",
      file: `${basic}/.opencode/tools/math.ts`,
      export: "add",
    })
    expect(listed.tools[0]).toEqual({ id: "bash", source: "builtin" })
    expect(listed.diagnostics).toEqual([])
  })

  test("a custom tool the model's filter hides (edit for gpt-5) is named as not offered, with why", async () => {
    const directory = tmpProject({
      ".opencode/tools/edit.ts": toolSource("my edit"),
      ".opencode/tools/apply_patch.ts": toolSource("my patch"),
    })
    const flags = ["list", "--no-global", "--engine", "node", "--model", "gpt-5"]
    const json = await runCli([...flags, "--json"], { cwd: directory })
    expect(json.exitCode, json.stderr).toBe(0)
    const listed = JSON.parse(json.stdout) as ListJson & { hidden: unknown }
    expect(listed.tools.map((tool) => tool.id)).not.toContain("edit")
    expect(listed.hidden).toEqual([
      { id: "edit", file: expect.stringMatching(/[\\/]\.opencode[\\/]tools[\\/]edit\.ts$/) },
    ])
    const human = await runCli(flags, { cwd: directory })
    expect(human.stdout).toContain(
      "\nNot offered to gpt-5:\n  edit  .opencode/tools/edit.ts: like the built-in edit, never offered to GPT models (a model id with gpt-, not gpt-4 or oss, such as gpt-5), which get apply_patch instead\n",
    )
  })

  test("without --json prints one readable line per tool", async () => {
    const result = await runCli(["list", "--no-global"], { cwd: basic })
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toContain("12 tools offered to @ai-sdk/openai-compatible mock-model")
    expect(result.stdout).toMatch(/math_add\s+\.opencode\/tools\/math\.ts, export add/)
    expect(result.stdout).toMatch(/bash\s+built-in/)
  })

  test("--dir defaults to the working directory", async () => {
    const result = await runCli(["list", "--no-global", "--json"], { cwd: basic })
    expect((JSON.parse(result.stdout) as ListJson).tools.map((tool) => tool.id)).toContain("greet")
  })

  test("--no-global leaves out the tools in the user-level config folder", async () => {
    const home = useTmpDir("tool-tester-home-")
    writeFiles(home, {
      ".config/opencode/tools/from_home.js": `export default { description: "global", args: {}, async execute() { return "global" } }\n`,
    })
    const withGlobal = await runCli(["list", "--dir", basic, "--json"], { home })
    expect((JSON.parse(withGlobal.stdout) as ListJson).tools.map((tool) => tool.id)).toContain("from_home")
    const withoutGlobal = await runCli(["list", "--dir", basic, "--json", "--no-global"], { home })
    expect((JSON.parse(withoutGlobal.stdout) as ListJson).tools.map((tool) => tool.id)).not.toContain("from_home")
  })

  test("--plugin adds a plugin module given by a path from the working directory", async () => {
    const result = await runCli(["list", "--no-global", "--json", "--plugin", "./extra-plugin.ts"], { cwd: basic })
    expect(result.exitCode).toBe(0)
    const shout = (JSON.parse(result.stdout) as ListJson).tools.find((tool) => tool.id === "shout")
    expect(shout).toMatchObject({ source: "plugin", file: `${basic}/extra-plugin.ts` })
  })

  test("--provider and --model select the built-ins: a gpt-5 model gets apply_patch instead of edit and write", async () => {
    const result = await runCli([
      "list",
      "--dir",
      basic,
      "--no-global",
      "--json",
      "--provider",
      "@ai-sdk/openai",
      "--model",
      "gpt-5",
    ])
    const ids = (JSON.parse(result.stdout) as ListJson).tools.map((tool) => tool.id)
    expect(ids).toContain("apply_patch")
    expect(ids).not.toContain("edit")
    expect(ids).not.toContain("write")
  })

  test("leaves out the tools that the config's permission rules deny", async () => {
    const result = await runCli(["list", "--dir", fixture("cli-permissions"), "--no-global", "--json"])
    expect(result.exitCode).toBe(0)
    const ids = (JSON.parse(result.stdout) as ListJson).tools.map((tool) => tool.id)
    expect(ids).toContain("lines")
    expect(ids).not.toContain("secret")
    expect(ids).not.toContain("task")
  })

  test("exits 3 when a tool file fails to load, after listing the others", async () => {
    const result = await runCli(["list", "--dir", fixture("cli-load-error"), "--no-global", "--json"])
    expect(result.exitCode).toBe(3)
    const listed = JSON.parse(result.stdout) as ListJson
    expect(listed.tools.map((tool) => tool.id)).toContain("fine")
    expect(listed.diagnostics).toMatchObject([{ code: "IMPORT_FAILED", severity: "error" }])
    expect(jsonError(result).code).toBe("IMPORT_FAILED")
  })

  test("exits 3 when the tool list would break (z.date()), and says which tool", async () => {
    const result = await runCli(["list", "--dir", fixture("cli-broken-schema"), "--no-global"])
    expect(result.exitCode).toBe(3)
    expect(result.stdout).toMatch(/when\s+/)
    expect(result.stderr).toContain("SCHEMA_UNREPRESENTABLE")
    expect(result.stderr).toContain("tool when")
  })
})

describe.each(["bun", "node"])("tool-tester list with a symbolic link loop in tools/ (%s engine)", (engine) => {
  test("a.ts -> b.ts -> a.ts fails to import as in opencode: exit 3, each file named, the other tools listed", async () => {
    const directory = fixture("hostile/symlink-loop-files")
    const result = await runCli(["list", "--dir", directory, "--no-global", "--json", "--engine", engine])
    expect(result.exitCode).toBe(3)
    const listed = JSON.parse(result.stdout) as ListJson
    expect(listed.tools.filter((tool) => tool.source === "file").map((tool) => tool.id)).toEqual(["fine"])
    expect(listed.diagnostics.map(({ code, file }) => ({ code, file }))).toEqual([
      { code: "IMPORT_FAILED", file: `${directory}/.opencode/tools/a.ts` },
      { code: "IMPORT_FAILED", file: `${directory}/.opencode/tools/b.ts` },
    ])
    expect(jsonError(result)).toMatchObject({ code: "IMPORT_FAILED", message: expect.stringContaining("ELOOP") })
  })
})
