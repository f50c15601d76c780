import path from "node:path"
import { describe, expect, test } from "vitest"
import { bunApiFindings, bunApiHint, bunApiUses } from "../../src/doctor/bun-api.ts"
import { diagnose } from "../../src/doctor/diagnose.ts"
import { loadTools } from "../../src/load-tools.ts"
import { isolatedEnvironment, tmpProject } from "../support/tmp-project.ts"

async function doctor(files: Record<string, string>, plugins: string[] = []) {
  const directory = tmpProject(files)
  const { env, home } = isolatedEnvironment()
  const project = await loadTools({
    directory,
    env,
    home,
    engine: "node",
    plugins: plugins.map((file) => path.join(directory, file)),
  })
  return { directory, project, findings: diagnose(project, { cwd: directory }) }
}

const tool = (body: string) =>
  `export default { description: "d", args: {}, async execute() { ${body}; return "ok" } }\n`

describe("BUN_API: tools that use Bun's API", () => {
  test("each Bun global is found at its first line, once per file and API", () => {
    const source = [
      "const listing = await Bun.$`ls`.text()", // 1
      'const text = await Bun.file("a.txt").text()', // 2
      'await Bun.write("b.txt", text)', // 3
      'Bun.spawn(["echo"])', // 4
      'Bun.spawnSync(["echo"])', // 5
      "await Bun.sleep(1)", // 6
      'Bun.hash("x")', // 7
      'await Bun.write("c.txt", listing)', // 8: Bun.write again
      "const { password } = Bun", // 9: the object itself
    ].join("\n")
    expect(bunApiUses("/p/tools/a.js", source)).toEqual([
      { api: "Bun.$", line: 1 },
      { api: "Bun.file", line: 2 },
      { api: "Bun.write", line: 3 },
      { api: "Bun.spawn", line: 4 },
      { api: "Bun.spawnSync", line: 5 },
      { api: "Bun.sleep", line: 6 },
      { api: "Bun.hash", line: 7 },
      { api: "Bun", line: 9 },
    ])
  })

  test("imports, re-exports, import() and require() of bun and bun:* are found at their lines", () => {
    const source = [
      'import { $ } from "bun"', // 1
      "",
      'import { Database } from "bun:sqlite"', // 3
      'export { serve } from "bun"', // 4: bun again
      "export async function open() {",
      "  const ffi = await import(",
      '    "bun:ffi")', // the import( is on 6
      '  const { spawn } = require("bun:jsc")', // 8
      "  return [ffi, spawn, $, new Database()]",
      "}",
    ].join("\n")
    expect(bunApiUses("/p/tools/a.js", source)).toEqual([
      { api: "bun", line: 1 },
      { api: "bun:sqlite", line: 3 },
      { api: "bun:ffi", line: 6 },
      { api: "bun:jsc", line: 8 },
    ])
  })

  test("Bun in comments, strings, templates, a local variable or a typeof guard is not a use", () => {
    const source = [
      "// Bun.file reads a file",
      "/* Bun.write(path, text) and import('bun:sqlite') */",
      'const help = "use Bun.$ or require(\\"bun\\")"',
      `const line = \`Bun.spawn \${help} import { $ } from 'bun'\``,
      "const hasBun = typeof Bun !== 'undefined'",
      "function wrap(Bun) { return Bun.file }",
      "export { help, line, hasBun, wrap }",
    ].join("\n")
    expect(bunApiUses("/p/tools/a.js", source)).toEqual([])
  })

  test("a TypeScript file keeps its original lines: types before the use, type-only imports ignored", () => {
    const source = [
      'import type { BunFile } from "bun"', // 1: types only, gone at run time
      "",
      "interface Options {",
      "  path: string",
      "  /** Bun.write is used below */",
      "  mode?: 'read' | 'write'",
      "}",
      "",
      "type Reader = (options: Options) => Promise<string>",
      "",
      "export const read: Reader = async (options: Options) => {",
      "  const file: BunFile =", // 12
      "    Bun.file(options.path)", // 13
      "  return file.text()",
      "}",
      "enum Mode { Read, Write }",
      `export const write = (text: string) => Bun.write(\`\${Mode.Write}\`, text as string)`, // 17
    ].join("\n")
    expect(bunApiUses("/p/tools/a.ts", source)).toEqual([
      { api: "Bun.file", line: 13 },
      { api: "Bun.write", line: 17 },
    ])
  })

  test("a plugin's input.$, read from the input or destructured, is Bun's shell; elsewhere `$` is not", () => {
    const source = [
      "export const Shell = async (input) => {", // 1
      "  const price = `costs $${1}`",
      "  const said = await input.$`echo hi`.text()", // 3
      "  return {}",
      "}",
      "export const Other = async ({ $ }) => ({ tool: { t: { execute: async () => $ `pwd`.text() } } })", // 6
    ].join("\n")
    expect(bunApiUses("/p/plugins/a.js", source, { plugin: true })).toEqual([{ api: "input.$ (Bun's shell)", line: 3 }])
    expect(bunApiUses("/p/tools/a.js", source)).toEqual([])
  })

  test("require() in an ES module is found (Bun gives ES modules a require, Node does not); a local require or a .cjs file is not", () => {
    const source = [
      'import { tool } from "@opencode-ai/plugin"',
      "export default tool({",
      "  description: 'Platform', args: {},",
      "  async execute() {",
      '    const os = require("node:os")', // 5
      "    return os.platform()",
      "  },",
      "})",
      "const local = (require) => require('x')",
      "if (typeof require === 'function') {}",
    ].join("\n")
    expect(bunApiUses("/p/tools/a.ts", source)).toEqual([{ api: "require", line: 5 }])
    expect(bunApiUses("/p/tools/a.cjs", 'const os = require("node:os")')).toEqual([])
    expect(bunApiHint("req threw: require is not defined")).toContain("--engine bun")
  })

  test("a file esbuild cannot read gives nothing (IMPORT_FAILED reports it)", () => {
    expect(bunApiUses("/p/tools/a.ts", "const = Bun.file(")).toEqual([])
  })

  test("doctor reports tool files and plugin entries, with the line, the API and what to do", async () => {
    const { directory, project, findings } = await doctor(
      {
        ".opencode/tools/shell.ts": `type Args = { dir: string }\n${tool(`const args: Args = { dir: '.' }; await Bun.$\`ls \${args.dir}\``)}`,
        ".opencode/tools/db.ts": `import { Database } from "bun:sqlite"\n${tool("new Database()")}`,
        ".opencode/tools/plain.ts": tool("// Bun.file is not used here"),
        "dev-plugin/index.ts": `export const Dev = async () => ({\n  tool: {},\n  "shell.env": async () => { await Bun.sleep(1) },\n})\n`,
      },
      ["dev-plugin/index.ts"],
    )
    const bun = findings.filter((finding) => finding.code === "BUN_API")
    expect(bun.map((finding) => [path.relative(directory, finding.file!), finding.data])).toEqual([
      [".opencode/tools/db.ts", { api: "bun:sqlite", line: 1 }],
      [".opencode/tools/shell.ts", { api: "Bun.$", line: 2 }],
      ["dev-plugin/index.ts", { api: "Bun.sleep", line: 3 }],
    ])
    expect(bun.every((finding) => finding.severity === "warning")).toBe(true)
    expect(bun[0]!.message).toBe(
      "line 1 imports bun:sqlite, which exists only in Bun: opencode runs tools in Bun, the node engine does not have it; install opencode (the engine is found on PATH) or run with --engine bun",
    )
    expect(bun[1]!.message).toMatch(/^line 2 uses Bun\.\$, which exists only in Bun: /)
    // Warnings come after errors: the failed import of bun:sqlite is an error.
    expect(findings.findIndex((finding) => finding.code === "IMPORT_FAILED")).toBeLessThan(findings.indexOf(bun[0]!))
    expect(bunApiFindings(project, { inBun: true })).toEqual([])
  })
})

describe("bunApiHint", () => {
  const advice =
    "this tool uses Bun's API, which opencode has and the node engine does not: install opencode or run with --engine bun"

  test("errors that mean Bun's API is missing get the advice", () => {
    expect(bunApiHint("ReferenceError: Bun is not defined")).toBe(advice)
    expect(bunApiHint("/p/tools/a.ts: a threw: Bun is not defined")).toBe(advice)
    expect(bunApiHint("failed to import: Cannot find package 'bun' imported from /p/tools/a.ts")).toBe(advice)
    expect(bunApiHint("Error: Cannot find module 'bun:sqlite'")).toBe(advice)
    expect(
      bunApiHint(
        "failed to import: Only URLs with a scheme in: file, data, and node are supported by the default ESM loader. Received protocol 'bun:'",
      ),
    ).toBe(advice)
  })

  test("other errors get nothing", () => {
    expect(bunApiHint("Cannot find package 'bunyan' imported from /p/tools/a.ts")).toBeUndefined()
    expect(bunApiHint("ReferenceError: Deno is not defined")).toBeUndefined()
    expect(bunApiHint("Received protocol 'https:'")).toBeUndefined()
  })

  test("a tool file that fails to import Bun's module gets the engine advice, not an npm install", async () => {
    const { findings } = await doctor({
      ".opencode/tools/db.ts": `import { Database } from "bun:sqlite"\n${tool("new Database()")}`,
      ".opencode/tools/shell.ts": `import { $ } from "bun"\n${tool("await $`ls`")}`,
    })
    const failures = findings.filter((finding) => finding.code === "IMPORT_FAILED")
    expect(failures).toHaveLength(2)
    for (const failure of failures) {
      expect(failure.message).toContain("run with --engine bun")
      expect(failure.message).not.toContain("npm install")
    }
  })
})
