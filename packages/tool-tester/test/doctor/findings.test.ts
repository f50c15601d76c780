import { mkdirSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import path from "node:path"
import { describe, expect, test } from "vitest"
import { z } from "zod"
import { z as zod3 } from "zod3"
import { z as zod4Copy } from "zod3/v4"
import { pluginInstallAdvice } from "../../src/discovery/plugin-spec.ts"
import { argsSchemaFindings } from "../../src/doctor/args-schema.ts"
import { collisionFindings } from "../../src/doctor/collisions.ts"
import { installCommand } from "../../src/doctor/load-problems.ts"
import { rawArgumentFindings } from "../../src/doctor/raw-arguments.ts"
import { testFileFindings } from "../../src/doctor/tool-files.ts"
import { toolNameFindings } from "../../src/doctor/tool-names.ts"
import { zodCopyFindings } from "../../src/doctor/zod-copies.ts"
import type { LoadedTool, ToolProject } from "../../src/load-tools.ts"
import { useTmpDir } from "../helpers.ts"

const file = "/p/.opencode/tools/t.ts"
const codes = (findings: Array<{ code: string }>) => findings.map((finding) => finding.code)

describe("doctor findings (pure modules)", () => {
  test("zod 4 args that convert give no finding", () => {
    expect(argsSchemaFindings({ id: "t", file, args: { a: z.string(), b: z.number().optional() } })).toEqual([])
  })

  test("args given as z.object(...) instead of a shape are an error that shows the shape to write", () => {
    const findings = argsSchemaFindings({
      id: "t",
      file,
      args: z.object({ city: z.string(), days: z.number().optional(), tags: z.array(z.string()) }),
    })
    expect(findings).toEqual([
      {
        code: "NON_ZOD_ARGS",
        severity: "error",
        file,
        // What opencode 1.18.34 offered the model for such a tool, seen with tool-tester e2e.
        message:
          "tool t: args is a zod schema itself (z.object(...)) where opencode expects a plain object of zod schemas: it offers the model the schema's internals (~standard, def) as the arguments, and passes what the model sends to execute unchecked; write args: { city: z.string(), days: z.number().optional(), tags: z.array(...) }, not z.object(...)",
        data: { tool: "t", offered: ["~standard", "def"] },
      },
    ])
    const [zod3Object] = argsSchemaFindings({ id: "t", file, args: zod3.object({ city: zod3.string() }) })
    expect(zod3Object!.message).toContain("internals (_def, ~standard)")
    expect(zod3Object!.message).toContain("write args: { city: z.string() }, not z.object(...)")
    const [string] = argsSchemaFindings({ id: "t", file, args: z.string() })
    expect(string!.message).toContain("args is a zod schema itself (z.string(...))")
    expect(string!.message).toContain("write args: { name: z.string() }, not z.string(...)")
  })

  // What opencode 1.18.34 offered for each of these and passed to execute: the args-shapes golden.
  test("args that are not an object are an error that says what opencode offers the model instead", () => {
    const message = (args: unknown) => argsSchemaFindings({ id: "t", file, args }).map((finding) => finding.message)
    expect(message("text")).toEqual([
      'tool t: args is a string ("text"), not an object of zod schemas: opencode takes its characters as args and drops them all, so it offers the model no arguments and passes what the model sends to execute unchecked; write args: {} for a tool without arguments, or args: { name: z.string() }',
    ])
    expect(message(42)).toEqual([
      "tool t: args is a number (42), not an object of zod schemas: opencode takes it as no args, so it offers the model no arguments and passes what the model sends to execute unchecked; write args: {} for a tool without arguments, or args: { name: z.string() }",
    ])
    expect(message(true)[0]).toMatch(/^tool t: args is a boolean \(true\), .*: opencode takes it as no args, /)
    expect(message("")[0]).toMatch(/^tool t: args is a string \(""\), .*: opencode takes it as no args, /)
    expect(message(["dropped", { type: "string" }])).toEqual([
      "tool t: args is an array, not an object of zod schemas: opencode takes its items as args named by their index and keeps only the objects and booleans, so it offers the model the argument 1 (sent verbatim as JSON Schema, required) and passes what the model sends to execute unchecked; write args: { name: z.string() }",
    ])
    const [array] = argsSchemaFindings({ id: "t", file, args: ["dropped", { type: "string" }] })
    expect(array).toMatchObject({ code: "NON_ZOD_ARGS", severity: "error", file })
    expect(array!.data).toEqual({
      tool: "t",
      offered: ["1"],
      sent: { type: "object", properties: { "1": { type: "string" } }, required: ["1"] },
    })
    // null and undefined are no args to opencode, like {}: nothing to report.
    expect(argsSchemaFindings({ id: "t", file, args: null })).toEqual([])
    expect(argsSchemaFindings({ id: "t", file, args: undefined })).toEqual([])
  })

  test("args written as a whole JSON Schema are an error that names the argument opencode offers instead", () => {
    const args = {
      type: "object",
      properties: { city: { type: "string" }, days: { type: "integer" } },
      required: ["city"],
    }
    expect(argsSchemaFindings({ id: "t", file, args })).toEqual([
      {
        code: "NON_ZOD_ARGS",
        severity: "error",
        file,
        message:
          "tool t: args is a whole JSON Schema where opencode expects a plain object of zod schemas: it takes the schema's keywords as the arguments, so it offers the model one required argument named properties and passes what the model sends to execute unchecked; write args: { city: z.string(), days: z.number().int().optional() }",
        data: { tool: "t", offered: ["properties"] },
      },
    ])
    // An arg that happens to be named properties, next to others, is no whole schema.
    expect(codes(argsSchemaFindings({ id: "t", file, args: { type: { type: "string" }, properties: {} } }))).toEqual([
      "NON_ZOD_ARGS",
    ])
    expect(argsSchemaFindings({ id: "t", file, args: { type: { type: "string" }, properties: {} } })[0]!.severity).toBe(
      "warning",
    )
  })

  test("zod 3 args show what opencode sends and what the schema means", () => {
    const [finding] = argsSchemaFindings({
      id: "t",
      file,
      args: { n: zod3.number().min(2), s: zod3.string().optional() },
    })
    expect(finding).toMatchObject({ code: "ZOD3_SCHEMA", severity: "error" })
    expect(finding!.data!["meant"]).toEqual({
      type: "object",
      properties: { n: { type: "number", minimum: 2 }, s: { type: "string" } },
      required: ["n"],
    })
    expect(JSON.stringify(finding!.data!["sent"])).toContain('"typeName":"ZodNumber"')
  })

  test("plain values are dropped and plain objects sent verbatim", () => {
    const [finding] = argsSchemaFindings({ id: "t", file, args: { q: "string", n: { type: "number" }, flag: true } })
    expect(finding!.code).toBe("NON_ZOD_ARGS")
    expect(finding!.data).toMatchObject({ dropped: ["q (a string)"], verbatim: ["n", "flag"] })
  })

  test("z.date() and z.bigint() break the tool list", () => {
    expect(codes(argsSchemaFindings({ id: "t", file, args: { at: z.date() } }))).toEqual(["SCHEMA_UNREPRESENTABLE"])
    expect(codes(argsSchemaFindings({ id: "t", file, args: { n: z.bigint() } }))).toEqual(["SCHEMA_UNREPRESENTABLE"])
  })

  test("a recursive schema has a dangling $ref", () => {
    const Node: z.ZodType = z.lazy(() => z.object({ children: z.array(Node).optional() }))
    expect(codes(argsSchemaFindings({ id: "t", file, args: { root: Node } }))).toEqual(["DANGLING_REF"])
  })

  test("defaults, transforms, trims, coercions and refinements are found where they hide", () => {
    const findings = rawArgumentFindings({
      id: "t",
      file,
      args: {
        plain: z.string(),
        nested: z.object({ limit: z.number().default(1) }).optional(),
        list: z.array(z.string().trim()),
        count: z.coerce.number(),
        even: z.union([z.number().refine((value) => value % 2 === 0), z.null()]),
      },
    })
    expect(findings.map((finding) => [finding.code, finding.data!["args"]])).toEqual([
      ["DEFAULT_NOT_APPLIED", ["nested.limit"]],
      ["TRANSFORM_NOT_APPLIED", ["list[]"]],
      ["COERCE_NOT_APPLIED", ["count"]],
      ["REFINE_NOT_CHECKED", ["even"]],
    ])
  })

  test("tool names: dots and spaces for OpenAI and Anthropic, a digit first for Gemini, length for all", () => {
    expect(toolNameFindings({ id: "ok_name-1", file, source: "file" })).toEqual([])
    expect(toolNameFindings({ id: "my.tool", file, source: "file" })[0]!.message).toContain('"."')
    expect(toolNameFindings({ id: "1tool", file, source: "plugin" })[0]!.message).toContain("Gemini")
    expect(toolNameFindings({ id: "x".repeat(65), file, source: "file" })[0]!.message).toContain("65 characters")
  })

  test("collisions name every file and the built-in override", () => {
    const tool = (id: string, at: string, overrides?: string): LoadedTool => ({
      id,
      source: "file",
      file: at,
      export: "default",
      description: "",
      definition: { description: "", args: {}, execute: () => "" },
      ...(overrides ? { overrides } : {}),
    })
    const findings = collisionFindings(
      [
        tool("read", "/p/.opencode/tools/read.ts", "builtin"),
        tool("dup", "/g/tools/dup.ts"),
        tool("dup", "/p/.opencode/tools/dup.ts"),
      ],
      { cwd: "/p" },
    )
    expect(codes(findings)).toEqual(["BUILTIN_OVERRIDE", "TOOL_COLLISION"])
    expect(findings[1]!.message).toContain("opencode keeps only the last, .opencode/tools/dup.ts")
    // opencode filters edit/write/apply_patch/websearch by id for each model, a custom one too: not "for every call".
    const hidden = collisionFindings(
      ["edit", "write", "apply_patch", "websearch", "bash"].map((id) =>
        tool(id, `/p/.opencode/tools/${id}.ts`, "builtin"),
      ),
      { cwd: "/p" },
    )
    expect(hidden.map((finding) => finding.message)).toEqual([
      "tool edit replaces opencode's built-in edit, and like it is never offered to GPT models (a model id with gpt-, not gpt-4 or oss, such as gpt-5), which get apply_patch instead: rename it unless you mean to replace the built-in",
      "tool write replaces opencode's built-in write, and like it is never offered to GPT models (a model id with gpt-, not gpt-4 or oss, such as gpt-5), which get apply_patch instead: rename it unless you mean to replace the built-in",
      "tool apply_patch replaces opencode's built-in apply_patch, and like it is offered only to GPT models (a model id with gpt-, not gpt-4 or oss, such as gpt-5); other models get edit and write instead: rename it unless you mean to replace the built-in",
      "tool websearch replaces opencode's built-in websearch, and like it is offered only with the provider opencode (opencode's own models): rename it unless you mean to replace the built-in",
      "tool bash replaces opencode's built-in bash for every call: rename it unless you mean to replace the built-in",
    ])
    // Ids that differ only in case are two tools in opencode: said, with what a call in another case runs.
    const cased = collisionFindings(
      [
        tool("BASH", "/p/.opencode/tools/BASH.ts"),
        tool("Weather", "/p/.opencode/tools/Weather.ts"),
        tool("WEATHER", "/p/.opencode/tools/WEATHER.ts"),
        tool("fine", "/p/.opencode/tools/fine.ts"),
      ],
      { cwd: "/p" },
    )
    expect(cased).toEqual([
      {
        code: "TOOL_CASE_CLASH",
        severity: "warning",
        file: "/p/.opencode/tools/BASH.ts",
        message:
          "tool ids BASH and bash differ only in case: opencode offers both, and a call in another case (such as Bash) runs bash (opencode's built-in bash): rename one",
        data: { tools: ["BASH", "bash"] },
      },
      {
        code: "TOOL_CASE_CLASH",
        severity: "warning",
        file: "/p/.opencode/tools/Weather.ts",
        message:
          "tool ids WEATHER and Weather differ only in case: opencode offers both, and a call in another case (such as weather) runs none of them (it goes to the invalid tool): rename one",
        data: { tools: ["WEATHER", "Weather"] },
      },
    ])
  })

  test("schemas from two zod copies are reported once", () => {
    const findings = zodCopyFindings([
      { file: "/p/a.ts", args: { a: z.string() } },
      { file: "/p/b.ts", args: { b: zod4Copy.string() } },
    ])
    expect(findings).toHaveLength(1)
    expect(findings[0]!.data).toEqual({ versions: ["4.1.8", "4.0.0"] })
    expect(zodCopyFindings([{ file: "/p/a.ts", args: { a: z.string(), b: z.number() } }])).toEqual([])
  })

  test("one zod's kinds that share a def.type (email and string, int and number, the two unions) are one copy", () => {
    const args = {
      to: z.email(),
      subject: z.string(),
      count: z.number(),
      retries: z.int(),
      v: z.union([z.string(), z.number()]),
      d: z.discriminatedUnion("k", [z.object({ k: z.literal("a") })]),
    }
    expect(zodCopyFindings([{ file: "/p/mail.ts", args }])).toEqual([])
  })

  test("the same zod version loaded twice is still two copies", () => {
    const load = createRequire(import.meta.url)
    const first = load("zod") as typeof import("zod")
    // The second copy is loaded beside the first and the first put back: a file that shares this
    // worker (the fast tier) still gets the first.
    const firstModules = Object.entries(load.cache).filter(([key]) => key.includes(`${path.sep}zod${path.sep}`))
    for (const [key] of firstModules) delete load.cache[key]
    const second = load("zod") as typeof import("zod")
    for (const [key, module] of firstModules) load.cache[key] = module
    expect(second.z.string().constructor).not.toBe(first.z.string().constructor)
    const findings = zodCopyFindings([
      { file: "/p/a.ts", args: { a: first.z.email() } },
      { file: "/p/b.ts", args: { b: second.z.email() } },
    ])
    expect(findings.map((finding) => finding.message)).toEqual([
      expect.stringContaining(
        "tool schemas come from 2 copies of zod 4.1.8 (z.string() built by different copies: (a.ts), (b.ts))",
      ),
    ])
  })

  test("the install command runs in the config folder that holds the file", () => {
    const project = { configDirectories: [{ path: "/p/.opencode", kind: "project" }] } as unknown as ToolProject
    expect(installCommand(project, "/p/.opencode/tools/x.ts", "left-pad", "/p")).toBe(
      "npm install --prefix .opencode left-pad",
    )
    const spaced = { configDirectories: [{ path: "/my app/.opencode", kind: "project" }] } as unknown as ToolProject
    expect(installCommand(spaced, "/my app/.opencode/tools/x.ts", "left-pad", "/")).toBe(
      "npm install --prefix 'my app/.opencode' left-pad",
    )
    expect(installCommand(project, "/p/.opencode/tools/x.ts", "left-pad", "/p/.opencode")).toBe("npm install left-pad")
  })

  test("a plugin loaded from a path installs in its package folder, not its dist; one installed from npm declares it", () => {
    const folder = useTmpDir()
    writeFileSync(path.join(folder, "package.json"), "{}")
    const project = {
      configDirectories: [{ path: path.join(folder, ".opencode"), kind: "project" }],
    } as unknown as ToolProject
    expect(installCommand(project, path.join(folder, "dist", "index.js"), "left-pad", folder)).toBe(
      "npm install left-pad",
    )
    const installed = path.join(folder, "node_modules", "opencode-x")
    mkdirSync(path.join(installed, "dist"), { recursive: true })
    writeFileSync(path.join(installed, "package.json"), "{}")
    expect(installCommand(project, path.join(installed, "dist", "index.js"), "left-pad", folder)).toBe(
      `add left-pad to "dependencies" in ${path.join(installed, "package.json")} (its users get its dependencies, never its devDependencies)`,
    )
  })

  // npm into a folder pnpm, yarn or Bun installed redoes its node_modules in npm's layout, beside a
  // second lock file: the command is the one of the manager that installed the config folder.
  test("the install command is the one of the package manager that installed the config folder", () => {
    const cases = [
      ["pnpm-lock.yaml", "pnpm --dir .opencode add left-pad"],
      ["yarn.lock", "yarn --cwd .opencode add left-pad"],
      ["bun.lock", "bun add --cwd .opencode left-pad"],
      ["package-lock.json", "npm install --prefix .opencode left-pad"],
    ] as const
    for (const [lockFile, command] of cases) {
      const folder = useTmpDir()
      const config = path.join(folder, ".opencode")
      mkdirSync(config)
      writeFileSync(path.join(config, "package.json"), "{}")
      writeFileSync(path.join(config, lockFile), "")
      const project = { configDirectories: [{ path: config, kind: "project" }] } as unknown as ToolProject
      expect(installCommand(project, path.join(config, "tools", "x.ts"), "left-pad", folder), lockFile).toBe(command)
      const advice = pluginInstallAdvice("opencode-weather", folder)
      expect(advice, lockFile).toBe(
        `to test it, run ${command.replace("left-pad", "opencode-weather")} from the project folder ${folder}`,
      )
    }
  })

  test("test files in tools/ are found by name", () => {
    const files = ["a.test.ts", "b.spec.js", "c_test.ts", "contest.ts", "d.ts"].map((name) => ({
      file: `/p/tools/${name}`,
      ids: [],
    }))
    expect(testFileFindings(files).map((finding) => finding.file)).toEqual([
      "/p/tools/a.test.ts",
      "/p/tools/b.spec.js",
      "/p/tools/c_test.ts",
    ])
  })
})
