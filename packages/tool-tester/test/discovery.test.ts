import { execFileSync } from "node:child_process"
import { symlinkSync } from "node:fs"
import path from "node:path"
import { describe, expect, test } from "vitest"
import { folderLinkLoops, symlinkLoop } from "../src/discovery/scan.ts"
import { listTools, loadTools } from "../src/index.ts"
import { packageRoot } from "./helpers.ts"
import { isolatedEnvironment, tmpProject, toolSource, writeFiles } from "./support/tmp-project.ts"

async function load(directory: string, extra: Parameters<typeof loadTools>[0] = {}) {
  const { env, home } = isolatedEnvironment()
  return loadTools({ directory, env, home, ...extra })
}

describe("discovery", () => {
  test("names tools after the file, with _export for named exports, keeping case and punctuation", async () => {
    const directory = tmpProject({
      ".opencode/tools/math.ts": `import { tool } from "@opencode-ai/plugin"
const add = tool({ description: "add", args: {}, execute: async () => "a" })
export { add }
export const multiply = { description: "mul", args: {}, execute: async () => "m" }
export const PI = 3.14
export function helper() {}
`,
      ".opencode/tools/MyTool.ts": toolSource("mine"),
      ".opencode/tools/my-dashed.tool.ts": toolSource("dashed"),
      ".opencode/tools/foo.test.ts": toolSource("a test file"),
      ".opencode/tool/jsfile.js": `export default { description: "js", args: {}, execute: async () => "js" }\n`,
    })
    const project = await load(directory)
    expect(project.tools.map((tool) => tool.id).sort()).toEqual(
      ["MyTool", "foo.test", "jsfile", "math_add", "math_multiply", "my-dashed.tool"].sort(),
    )
    expect(project.diagnostics).toEqual([])
    const add = project.tools.find((tool) => tool.id === "math_add")
    expect(add).toMatchObject({ source: "file", export: "add", file: path.join(directory, ".opencode/tools/math.ts") })
  })

  test("scans one level of tool/ and tools/ and only .js and .ts files", async () => {
    const directory = tmpProject({
      ".opencode/tools/kept.ts": toolSource("kept"),
      ".opencode/tools/ignored.mjs": `export default { description: "x", args: {}, execute: async () => "" }\n`,
      ".opencode/tools/ignored.tsx": toolSource("x"),
      ".opencode/tools/nested/deep.ts": toolSource("x"),
      ".opencode/other/elsewhere.ts": toolSource("x"),
    })
    const project = await load(directory)
    expect(project.tools.map((tool) => tool.id)).toEqual(["kept"])
  })

  test("loads TypeScript as ES modules like Bun: top-level await, import.meta and extensionless imports", async () => {
    const directory = tmpProject({
      ".opencode/package.json": `{"dependencies":{"@opencode-ai/plugin":"1.18.33"}}`,
      ".opencode/tools/modern.ts": `import { tool } from "@opencode-ai/plugin"
import { greet } from "../lib/greet"
const answer: number = await Promise.resolve(42)
export default tool({
  description: "modern",
  args: {},
  async execute() { return greet(String(answer)) + " " + import.meta.url.startsWith("file:") },
})
`,
      ".opencode/lib/greet.ts": `export const greet = (name: string): string => "hi " + name\n`,
    })
    const project = await load(directory)
    expect(project.diagnostics).toEqual([])
    expect(project.tools.map((tool) => tool.id)).toEqual(["modern"])
  })

  test("reports a file that fails to import with its error and keeps loading the others", async () => {
    const directory = tmpProject({
      ".opencode/tools/good.ts": toolSource("good"),
      ".opencode/tools/syntax.ts": `export default {\n  description: "broken"\n  args: {},\n}\n`,
      ".opencode/tools/missing.ts": `import leftPad from "left-pad-not-installed"\nexport default leftPad\n`,
      ".opencode/tools/throws.ts": `throw new Error("boom at import")\n`,
    })
    const project = await load(directory)
    expect(project.tools.map((tool) => tool.id)).toEqual(["good"])
    const byFile = Object.fromEntries(project.diagnostics.map((item) => [path.basename(item.file ?? ""), item]))
    expect(Object.keys(byFile).sort()).toEqual(["missing.ts", "syntax.ts", "throws.ts"])
    for (const diagnostic of project.diagnostics) {
      expect(diagnostic.code).toBe("IMPORT_FAILED")
      expect(diagnostic.message).not.toContain("\n")
    }
    expect(byFile["syntax.ts"]!.message).toMatch(/syntax\.ts: failed to import: syntax error at .*syntax\.ts:3:/)
    expect(byFile["missing.ts"]!.message).toContain("left-pad-not-installed")
    expect(byFile["missing.ts"]!.data).toMatchObject({ missingPackage: "left-pad-not-installed" })
    expect(byFile["throws.ts"]!.message).toContain("boom at import")
  })

  test.each(["bun", "node"] as const)(
    "a file that throws, at import, a value that cannot be made text fails alone as IMPORT_FAILED saying so (%s engine)",
    async (engine) => {
      const directory = tmpProject({
        ".opencode/tools/good.ts": toolSource("good"),
        ".opencode/tools/null-prototype.ts": "throw Object.create(null)\n",
        ".opencode/tools/throwing-text.ts": 'throw { toString() { throw new Error("no text") } }\n',
        ".opencode/tools/plain.ts": "throw { code: 5 }\n",
        ".opencode/plugins/plugin.ts": "throw Object.create(null)\n",
      })
      const project = await load(directory, { engine })
      expect(project.tools.map((tool) => tool.id)).toEqual(["good"])
      const message = (file: string) =>
        project.diagnostics.find((diagnostic) => diagnostic.file === path.join(directory, file))?.message
      const unreadable =
        /: failed to import: it threw a value that cannot be read \(reading it threw (TypeError: .+)\)$/
      expect(message(".opencode/tools/null-prototype.ts")).toMatch(unreadable)
      expect(message(".opencode/plugins/plugin.ts")).toMatch(unreadable)
      expect(message(".opencode/tools/throwing-text.ts")).toMatch(
        /: failed to import: it threw a value that cannot be read \(reading it threw Error: no text\)$/,
      )
      expect(message(".opencode/tools/plain.ts")).toMatch(/: failed to import: \{"code":5\}$/)
      expect(project.diagnostics.every((diagnostic) => diagnostic.code === "IMPORT_FAILED")).toBe(true)
    },
  )

  test.each(["bun", "node"] as const)(
    "an export opencode cannot read while it builds its tool list (a throwing description getter, a Proxy's has trap) fails its file as IMPORT_FAILED, not tool-tester (%s engine)",
    async (engine) => {
      const directory = tmpProject({
        ".opencode/tools/good.ts": toolSource("good"),
        ".opencode/tools/getter.ts": `import { tool } from "@opencode-ai/plugin"
export const fine = tool({ description: "fine", args: {}, async execute() { return "fine" } })
const definition = tool({ description: "x", args: {}, async execute() { return "ok" } })
Object.defineProperty(definition, "description", { get() { throw new Error("desc getter") } })
export default definition
`,
        ".opencode/tools/trap.ts": `export default new Proxy({}, { has() { throw new Error("has trap") } })
`,
        ".opencode/plugins/plugin.ts": `const broken = { description: "x", args: {}, execute: async () => "ok" }
Object.defineProperty(broken, "description", { get() { throw new Error("plugin desc getter") } })
export const Tools = async () => ({ tool: { broken, calm: { description: "calm", args: {}, execute: async () => "calm" } } })
`,
      })
      const project = await load(directory, { engine })
      expect(project.engine.name).toBe(engine)
      // opencode fails its whole tool list on each of them ("Unexpected server error", observed on
      // 1.18.34 with tool-tester e2e); tool-tester reports the file and keeps the others, as for a
      // file that does not import.
      expect(project.tools.map((tool) => tool.id).sort()).toEqual(["calm", "good"])
      const getter = path.join(directory, ".opencode/tools/getter.ts")
      const trap = path.join(directory, ".opencode/tools/trap.ts")
      const plugin = path.join(directory, ".opencode/plugins/plugin.ts")
      expect(
        project.diagnostics.map(({ code, severity, file, message, data }) => ({ code, severity, file, message, data })),
      ).toEqual(
        expect.arrayContaining([
          {
            code: "IMPORT_FAILED",
            severity: "error",
            file: getter,
            message: `${getter}: opencode cannot load its export default: reading its description threw: desc getter`,
            data: { file: getter, export: "default" },
          },
          {
            code: "IMPORT_FAILED",
            severity: "error",
            file: trap,
            message: `${trap}: opencode cannot load its export default: checking it for the args, description and execute keys threw: has trap`,
            data: { file: trap, export: "default" },
          },
          {
            code: "PLUGIN_LOAD_FAILED",
            severity: "error",
            file: plugin,
            message: `${plugin}: opencode cannot load the tool broken of plugin function Tools: reading its description threw: plugin desc getter; opencode fails its whole tool list on it ("Unexpected server error"), so the model is offered no tool at all: make description a plain string`,
            data: { file: plugin, plugin: expect.any(String), tool: "broken" },
          },
        ]),
      )
      expect(project.diagnostics).toHaveLength(3)
      expect(
        project.files.filter((entry) => entry.file === getter || entry.file === trap).map((entry) => entry.ids),
      ).toEqual([[], []])
    },
  )

  test("warns about exports that look like tools but miss a key", async () => {
    const directory = tmpProject({
      ".opencode/tools/partial.ts": `export const almost = { description: "no execute", args: {} }\n`,
    })
    const project = await load(directory)
    expect(project.tools).toEqual([])
    expect(project.diagnostics).toEqual([
      expect.objectContaining({
        code: "IGNORED_EXPORT",
        severity: "warning",
        data: { export: "almost", missing: ["execute"] },
      }),
    ])
  })

  test("takes config folders in opencode's order and lets the later definition win", async () => {
    const { env, home } = isolatedEnvironment({
      ".config/opencode/tools/dup.ts": toolSource("global"),
      ".config/opencode/tools/only_global.ts": toolSource("only global"),
      ".opencode/tools/dup.ts": toolSource("homeopencode"),
    })
    const directory = tmpProject({
      ".opencode/tools/dup.ts": toolSource("project"),
      "sub/.opencode/tools/dup.ts": toolSource("nested"),
    })
    const configDir = tmpProject({ "tools/dup.ts": toolSource("configdir") }, { git: false })
    const run = (extraEnv: Record<string, string>, cwd = path.join(directory, "sub")) =>
      loadTools({ directory: cwd, env: { ...env, ...extraEnv }, home })
    const winner = async (project: Awaited<ReturnType<typeof run>>) => {
      const listed = listTools(project).find((tool) => tool.id === "dup")!
      return project.tools.find((tool) => tool.file === listed.file)!.description
    }

    const all = await run({ OPENCODE_CONFIG_DIR: configDir })
    expect(all.configDirectories.map((entry) => entry.kind)).toEqual(["global", "project", "project", "home", "env"])
    expect(await winner(all)).toBe("configdir")
    expect(all.tools.map((tool) => tool.id)).toContain("only_global")
    expect(await winner(await run({}))).toBe("homeopencode")
    const projectOnly = await loadTools({ directory: path.join(directory, "sub"), env, home, global: false })
    // The .opencode nearer the working directory loses to the one at the git root
    // (docs/opencode-contract.md#config-folders).
    expect(await winner(projectOnly)).toBe("project")
    expect(projectOnly.configDirectories.map((entry) => entry.path)).toEqual([
      path.join(directory, "sub", ".opencode"),
      path.join(directory, ".opencode"),
    ])
  })

  test("does not scan .opencode folders above the git worktree", async () => {
    const outer = tmpProject({ ".opencode/tools/above.ts": toolSource("above") }, { git: false })
    writeFiles(outer, {
      "repo/.git/HEAD": "ref: refs/heads/main\n",
      "repo/.opencode/tools/inside.ts": toolSource("inside"),
    })
    const project = await load(path.join(outer, "repo"), { global: false })
    expect(project.worktree).toBe(path.join(outer, "repo"))
    expect(project.tools.map((tool) => tool.id)).toEqual(["inside"])
  })

  test("marks custom tools that replace built-ins or earlier tools", async () => {
    const directory = tmpProject({
      ".opencode/tools/bash.ts": toolSource("CUSTOM bash override"),
      ".opencode/tools/invalid.ts": toolSource("my invalid"),
      ".opencode/tools/math.ts": `export const add = { description: "from math.ts", args: {}, execute: async () => "" }\n`,
      ".opencode/tools/math_add.ts": toolSource("from math_add.ts"),
    })
    const project = await load(directory)
    const byDescription = (description: string) => project.tools.find((tool) => tool.description === description)!
    expect(byDescription("CUSTOM bash override").overrides).toBe("builtin")
    expect(byDescription("my invalid").overrides).toBe("builtin")
    expect(byDescription("from math_add.ts").overrides).toBe(path.join(directory, ".opencode/tools/math.ts"))
    expect(byDescription("from math.ts").overriddenBy).toBe(path.join(directory, ".opencode/tools/math_add.ts"))
    const listed = listTools(project)
    expect(listed.filter((tool) => tool.id === "bash")).toEqual([
      expect.objectContaining({ source: "file", overrides: "builtin" }),
    ])
    expect(listed.map((tool) => tool.id)).not.toContain("invalid")
  })

  test("sees an edited tool file on the next load", async () => {
    const directory = tmpProject({
      ".opencode/tools/changing.ts": `import { note } from "../lib/note"\nexport default { description: note, args: {}, execute: async () => note }\n`,
      ".opencode/lib/note.ts": `export const note = "first"\n`,
    })
    expect((await load(directory)).tools[0]!.description).toBe("first")
    writeFiles(directory, { ".opencode/lib/note.ts": `export const note = "second"\n` })
    expect((await load(directory)).tools[0]!.description).toBe("second")
  })

  test("fails clearly when the project directory does not exist, or is a file", async () => {
    const missing = path.resolve("/nonexistent/project")
    await expect(loadTools({ directory: missing })).rejects.toMatchObject({
      code: "PATH_NOT_FOUND",
      message: `${missing} does not exist; pass the project directory`,
    })
    const file = path.join(tmpProject({ "notes.txt": "x" }), "notes.txt")
    await expect(loadTools({ directory: file })).rejects.toMatchObject({
      code: "PATH_NOT_FOUND",
      message: `${file} is a file, not a folder; pass the project directory`,
    })
  })

  test("refuses options it cannot read as USAGE naming the option, before loading anything", async () => {
    const directory = tmpProject({})
    const refused = [
      // A path in place of the options would load the working directory instead.
      [
        directory,
        "options",
        `loadTools() takes an options object, such as { directory, global: false }, not ${JSON.stringify(directory)}`,
      ],
      [
        { directory: new URL("file:///project/") },
        "directory",
        "directory is a URL: pass a path, fileURLToPath(url) (from node:url)",
      ],
      [{ directory: 5 }, "directory", "directory must be the project folder's path, a string, not 5"],
      // A string would be read one character at a time, each a plugin that is not there.
      [
        { directory, plugins: "./plugin.ts" },
        "plugins",
        'plugins must be an array of plugin specs, such as ["./my-plugin"], not "./plugin.ts"',
      ],
      [
        { directory, plugins: [["./plugin.ts"]] },
        "plugins",
        "each entry of plugins must be a spec string or [spec, options], not an array",
      ],
      [{ directory, global: "false" }, "global", 'global must be true or false, not "false"'],
      [{ directory, engine: 1 }, "engine", 'engine must be "auto", "bun" or "node", not 1'],
      [
        { directory, engineBinary: {} },
        "engineBinary",
        "engineBinary must be the path of an opencode or bun executable, not an object",
      ],
      [
        { directory, env: "XDG_CONFIG_HOME=/x" },
        "env",
        'env must be an environment, an object of strings such as { ...process.env, XDG_CONFIG_HOME: folder }, not "XDG_CONFIG_HOME=/x"',
      ],
      [
        { directory, env: { HOME: "/h", PORT: 80 } },
        "env",
        "env must be an environment, an object of strings such as { ...process.env, XDG_CONFIG_HOME: folder }: PORT is 80",
      ],
      [{ directory, home: 5 }, "home", "home must be the path of a home folder, a string, not 5"],
      [
        { directory, config: '{ "plugin": [] }' },
        "config",
        'config must be an object as opencode.json holds, such as { plugin: [] }, not "{ \\"plugin\\": [] }"',
      ],
      [
        { directory, client: 5 },
        "client",
        "client must be an object of namespaces holding methods, such as { app: { log: async () => ({ data: true }) } }, not 5",
      ],
      [
        { directory, onServerLog: "console" },
        "onServerLog",
        'onServerLog must be a function told each line, not "console"',
      ],
    ] as const
    for (const [options, option, message] of refused) {
      await expect(loadTools(options as never), message).rejects.toMatchObject({
        code: "USAGE",
        message,
        data: { option },
      })
    }
  })
})

describe("files without tools", () => {
  test("are reported with the reason, as opencode imports them and offers nothing", async () => {
    const directory = tmpProject({
      ".opencode/tools/fn.ts": `export default async function execute() { return "x" }\n`,
      ".opencode/tools/helpers.ts": `export const slugify = (text: string) => text.toLowerCase()\n`,
      ".opencode/tools/number.ts": `export default 42\n`,
    })
    const { env, home } = isolatedEnvironment()
    const project = await loadTools({ directory, env, home })
    const messages = Object.fromEntries(
      project.diagnostics.map((diagnostic) => [path.basename(diagnostic.file!), [diagnostic.code, diagnostic.message]]),
    )
    expect(messages["fn.ts"]).toEqual([
      "NO_TOOLS",
      expect.stringContaining(
        "fn.ts: its default export is a function, not a tool object; opencode imports the file and offers nothing from it",
      ),
    ])
    expect(messages["helpers.ts"]).toEqual(["NO_TOOLS", expect.stringContaining("none of its exports is a tool")])
    expect(messages["number.ts"]).toEqual([
      "NO_TOOLS",
      expect.stringContaining("its default export is number, not a tool object"),
    ])
  })
})

describe.runIf(process.platform !== "win32")("devices and FIFOs in tools/ (POSIX: /dev/zero, mkfifo)", () => {
  // opencode's glob (Bun.Glob, files only, links followed; Bun 1.3.14) lists a link to a device or a
  // FIFO, and not a FIFO itself nor a link that leads nowhere: what it lists it would read without end.
  test.each(["bun", "node"] as const)(
    "a link to a device or a FIFO is listed and refused before it is read; a FIFO itself is not listed (%s engine)",
    async (engine) => {
      const directory = tmpProject({ ".opencode/tools/good.ts": toolSource("good") })
      const tools = path.join(directory, ".opencode", "tools")
      const fifo = path.join(directory, "a-fifo")
      execFileSync("mkfifo", [fifo])
      execFileSync("mkfifo", [path.join(tools, "fifo.ts")])
      symlinkSync("/dev/zero", path.join(tools, "zero.ts"))
      symlinkSync(fifo, path.join(tools, "to-fifo.ts"))
      symlinkSync(path.join(directory, "nowhere"), path.join(tools, "dangling.ts"))
      const project = await load(directory, { engine, global: false })
      expect(project.tools.map((tool) => tool.id)).toEqual(["good"])
      expect(
        project.diagnostics.map(({ code, file, message }) => ({ code, file: path.basename(file ?? ""), message })),
      ).toEqual([
        {
          code: "IMPORT_FAILED",
          file: "to-fifo.ts",
          message: `${path.join(tools, "to-fifo.ts")}: is not a regular file (a FIFO), so it cannot be read as source: point it at a module file`,
        },
        {
          code: "IMPORT_FAILED",
          file: "zero.ts",
          message: `${path.join(tools, "zero.ts")}: is not a regular file (a character device), so it cannot be read as source: point it at a module file`,
        },
      ])
    },
  )
})

describe("symbolic link loops in tools/", () => {
  const files = path.join(packageRoot, "test", "fixtures", "hostile", "symlink-loop-files")
  const folder = path.join(packageRoot, "test", "fixtures", "hostile", "symlink-loop-folder")

  // opencode 1.18.34 lists a.ts and b.ts (a.ts -> b.ts -> a.ts), fails to import them with ELOOP
  // and offers no tool at all; a link to a folder (loop -> .) it skips (both seen through e2e).
  test.each(["bun", "node"] as const)(
    "a file link loop fails to import, naming the file, as in opencode (%s engine)",
    async (engine) => {
      const project = await load(files, { engine, global: false })
      expect(project.tools.map((tool) => tool.id)).toEqual(["fine"])
      const tools = path.join(files, ".opencode", "tools")
      expect(project.diagnostics).toEqual(
        ["a.ts", "b.ts"].map((name) => ({
          code: "IMPORT_FAILED",
          severity: "error",
          file: path.join(tools, name),
          message: expect.stringMatching(new RegExp(`^${path.join(tools, name)}: failed to import: .*ELOOP`)),
          data: expect.objectContaining({ file: path.join(tools, name) }),
        })),
      )
    },
  )

  test.each(["bun", "node"] as const)("a link to a folder that holds it is skipped (%s engine)", async (engine) => {
    const project = await load(folder, { engine, global: false })
    expect(project.tools.map((tool) => tool.id)).toEqual(["fine"])
    expect(project.diagnostics).toEqual([])
  })

  test("symlinkLoop shows the chain, and nothing for a file or a link that resolves", () => {
    const tools = path.join(files, ".opencode", "tools")
    expect(symlinkLoop(path.join(tools, "a.ts"))).toBe("a.ts -> b.ts -> a.ts")
    expect(symlinkLoop(path.join(tools, "fine.ts"))).toBeUndefined()
    expect(symlinkLoop(path.join(folder, ".opencode", "tools", "loop"))).toBeUndefined()
    const directory = tmpProject({ "x.ts": "" })
    symlinkSync("x.ts", path.join(directory, "y.ts"))
    symlinkSync("self.ts", path.join(directory, "self.ts"))
    symlinkSync("self.ts", path.join(directory, "to-self.ts"))
    expect(symlinkLoop(path.join(directory, "y.ts"))).toBeUndefined()
    expect(symlinkLoop(path.join(directory, "self.ts"))).toBe("self.ts -> self.ts")
    expect(symlinkLoop(path.join(directory, "to-self.ts"))).toBe("to-self.ts -> self.ts -> self.ts")
  })

  test("folderLinkLoops finds links to the folder or one above it, not links elsewhere", () => {
    const directory = tmpProject({ "tools/fine.ts": "", "elsewhere/x.ts": "" })
    const tools = path.join(directory, "tools")
    symlinkSync(".", path.join(tools, "here"))
    symlinkSync("..", path.join(tools, "up"))
    symlinkSync("../elsewhere", path.join(tools, "shared"))
    expect(folderLinkLoops(tools)).toEqual([
      { file: path.join(tools, "here"), target: "." },
      { file: path.join(tools, "up"), target: ".." },
    ])
    expect(folderLinkLoops(path.join(directory, "missing"))).toEqual([])
  })
})
