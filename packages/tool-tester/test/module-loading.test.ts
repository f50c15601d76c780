import { mkdirSync, readdirSync, readFileSync, symlinkSync } from "node:fs"
import path from "node:path"
import { pathToFileURL } from "node:url"
import { describe, expect, test } from "vitest"
import { loadTools, runTool } from "../src/index.ts"
import { isolatedEnvironment, tmpProject, writeFiles } from "./support/tmp-project.ts"

// The node engine (the bun engine imports natively, as opencode does). How tool files and what they import are loaded: as Bun loads them under opencode (TypeScript
// without a build, Bun's lenient relative paths, import.meta of the file itself), by preparing
// each project module rather than through module hooks.

async function load(directory: string) {
  const { env, home } = isolatedEnvironment()
  return loadTools({ directory, env, home, engine: "node" })
}

async function output(directory: string, tool: string): Promise<unknown> {
  const project = await load(directory)
  expect(project.diagnostics).toEqual([])
  const result = await runTool(project, tool, {})
  expect(result.status).toBe("completed")
  return JSON.parse(result.output)
}

const jsonTool = (body: string) => `export default { description: "d", args: {}, async execute() { ${body} } }\n`

describe("module loading", () => {
  test("import.meta describes the tool file itself, with Node's and Bun's names", async () => {
    const directory = tmpProject({
      ".opencode/tools/meta.ts": jsonTool(`
const meta = import.meta as any
return JSON.stringify({
  url: meta.url, filename: meta.filename, dirname: meta.dirname,
  dir: meta.dir, file: meta.file, path: meta.path, main: meta.main,
  same: import.meta === import.meta, env: meta.env === process.env,
  resolved: meta.resolve("../lib/sibling"), required: meta.require("../lib/data.cjs"),
})`),
      ".opencode/lib/sibling.ts": "export const x = 1\n",
      ".opencode/lib/data.cjs": "module.exports = { from: 'cjs' }\n",
    })
    const file = path.join(directory, ".opencode/tools/meta.ts")
    expect(await output(directory, "meta")).toEqual({
      url: pathToFileURL(file).href,
      filename: file,
      dirname: path.dirname(file),
      dir: path.dirname(file),
      file: "meta.ts",
      path: file,
      main: false,
      same: true,
      env: true,
      resolved: pathToFileURL(path.join(directory, ".opencode/lib/sibling.ts")).href,
      required: { from: "cjs" },
    })
  })

  test("relative imports resolve as Bun resolves them: no extension, .js naming .ts, folder index", async () => {
    const directory = tmpProject({
      ".opencode/tools/paths.ts": `import { a } from "../lib/a"
import { b } from "../lib/b.js"
import { c } from "../lib/c"
import { d } from "../lib/d.mjs"
${jsonTool("return JSON.stringify([a, b, c, d])")}`,
      ".opencode/lib/a.ts": `export const a: string = "a.ts"\n`,
      ".opencode/lib/b.ts": `export const b: string = "b.ts"\n`,
      ".opencode/lib/c/index.ts": `export const c: string = "c/index.ts"\n`,
      ".opencode/lib/d.mjs": `import { a } from "./a"\nexport const d = "d.mjs+" + a\n`,
    })
    expect(await output(directory, "paths")).toEqual(["a.ts", "b.ts", "c/index.ts", "d.mjs+a.ts"])
  })

  test("modules are shared within a load: two tools see one helper instance, cycles work", async () => {
    const directory = tmpProject({
      ".opencode/tools/first.ts": `import { state } from "../lib/state"\nstate.count++\n${jsonTool("return JSON.stringify(state)")}`,
      ".opencode/tools/second.ts": `import { state } from "../lib/state"\nstate.count++\n${jsonTool("return JSON.stringify(state)")}`,
      ".opencode/lib/state.ts": `import { other } from "./other"\nexport const state = { count: 0, other: () => other() }\n`,
      ".opencode/lib/other.ts": `import { state } from "./state"\nexport const other = () => typeof state\n`,
    })
    expect(await output(directory, "first")).toEqual({ count: 2 })
    // A new load is a fresh set of instances, as after restarting opencode.
    expect(await output(directory, "second")).toEqual({ count: 2 })
  })

  test("dynamic imports load TypeScript relative to the file, with a literal or a computed specifier", async () => {
    const directory = tmpProject({
      ".opencode/tools/lazy.ts": jsonTool(`
const name = "b"
const literal = await import("../lib/a")
const computed = await import("../lib/" + name)
const json = await import("../lib/data.json", { with: { type: "json" } })
const builtin = await import("node:path")
return JSON.stringify([literal.a, computed.b, json.default.value, typeof builtin.join])`),
      ".opencode/lib/a.ts": `export const a: string = "a"\n`,
      ".opencode/lib/b.ts": `export const b: string = "b"\n`,
      ".opencode/lib/data.json": `{ "value": 7 }\n`,
    })
    expect(await output(directory, "lazy")).toEqual(["a", "b", 7, "function"])
  })

  test("a missing package fails with Node's words and the importing file, and names the package", async () => {
    const directory = tmpProject({
      ".opencode/tools/uses-helper.ts": `import { x } from "../lib/helper"\n${jsonTool("return x")}`,
      ".opencode/lib/helper.ts": `import pad from "left-pad-not-installed"\nexport const x = pad\n`,
    })
    const project = await load(directory)
    const helper = path.join(directory, ".opencode/lib/helper.ts")
    expect(project.diagnostics).toEqual([
      expect.objectContaining({
        code: "IMPORT_FAILED",
        message: `${path.join(directory, ".opencode/tools/uses-helper.ts")}: failed to import: Cannot find package 'left-pad-not-installed' imported from ${helper}`,
        data: expect.objectContaining({ missingPackage: "left-pad-not-installed" }),
      }),
    ])
  })

  test("a hashbang line, CommonJS helpers and JSON imports keep working", async () => {
    const directory = tmpProject({
      ".opencode/tools/mixed.ts": `#!/usr/bin/env bun
import data from "../lib/data.json" with { type: "json" }
import helper from "../lib/helper.cjs"
${jsonTool("return JSON.stringify([data.value, helper.name, import.meta.url.endsWith('mixed.ts')])")}`,
      ".opencode/lib/data.json": `{ "value": 1 }\n`,
      ".opencode/lib/helper.cjs": `module.exports = { name: "cjs" }\n`,
    })
    expect(await output(directory, "mixed")).toEqual([1, "cjs", true])
  })

  test("a helper edited between two loads is seen by the second, the first load keeps its own", async () => {
    const directory = tmpProject({
      ".opencode/tools/reads.js": `import { note } from "../lib/note.js"\n${jsonTool("return JSON.stringify(note)")}`,
      ".opencode/lib/note.js": `export const note = "first"\n`,
    })
    const first = await load(directory)
    writeFiles(directory, { ".opencode/lib/note.js": `export const note = "second"\n` })
    const second = await load(directory)
    // An edit that keeps the length (and, here, the modification time's second) is seen too.
    writeFiles(directory, { ".opencode/lib/note.js": `export const note = "secant"\n` })
    const third = await load(directory)
    expect((await runTool(first, "reads", {})).output).toBe('"first"')
    expect((await runTool(second, "reads", {})).output).toBe('"second"')
    expect((await runTool(third, "reads", {})).output).toBe('"secant"')
  })

  test("user files are never written to: prepared copies live in the temporary folder", async () => {
    const source = `import { tool } from "@opencode-ai/plugin"\n${jsonTool("return JSON.stringify(import.meta.url)")}`
    const directory = tmpProject({ ".opencode/tools/plain.ts": source })
    await output(directory, "plain")
    expect(readFileSync(path.join(directory, ".opencode/tools/plain.ts"), "utf8")).toBe(source)
    expect(readdirSync(path.join(directory, ".opencode"), { recursive: true }).sort()).toEqual([
      "tools",
      "tools/plain.ts",
    ])
  })

  test("a tool folder reached through a symbolic link is loaded once, under its real path", async () => {
    const directory = tmpProject({
      "shared/tools/linked.ts": `import { hits } from "../lib/hits"\n${jsonTool("return JSON.stringify({ hits: hits(), url: import.meta.url })")}`,
      "shared/lib/hits.ts": "let calls = 0\nexport const hits = () => ++calls\n",
      ".opencode/tools/direct.ts": `import { hits } from "../../shared/lib/hits"\nhits()\n${jsonTool("return JSON.stringify(hits())")}`,
    })
    symlinkSync(path.join(directory, "shared/tools/linked.ts"), path.join(directory, ".opencode/tools/linked.ts"))
    // direct.ts's import of hits() ran first; the linked tool shares the same helper instance.
    expect(await output(directory, "linked")).toEqual({
      hits: 2,
      url: pathToFileURL(path.join(directory, "shared/tools/linked.ts")).href,
    })
  })
})

describe("packages", () => {
  test("are loaded once and shared by every load, even when linked from outside node_modules", async () => {
    const directory = tmpProject({
      ".opencode/tools/count.ts": `import { hit } from "linked-counter"\nimport { local } from "../lib/local"\n${jsonTool("return JSON.stringify({ package: hit(), project: local() })")}`,
      ".opencode/lib/local.ts": "let calls = 0\nexport const local = () => ++calls\n",
      "packages/linked-counter/package.json": `{ "name": "linked-counter", "type": "module", "main": "index.js" }`,
      "packages/linked-counter/index.js": "let calls = 0\nexport const hit = () => ++calls\n",
    })
    mkdirSync(path.join(directory, ".opencode/node_modules"), { recursive: true })
    symlinkSync(
      path.join(directory, "packages/linked-counter"),
      path.join(directory, ".opencode/node_modules/linked-counter"),
    )
    // The project's files are fresh in each load (as after restarting opencode); the package is not.
    expect(await output(directory, "count")).toEqual({ package: 1, project: 1 })
    expect(await output(directory, "count")).toEqual({ package: 2, project: 1 })
  })
})
