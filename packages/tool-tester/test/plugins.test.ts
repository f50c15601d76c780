import path from "node:path"
import { describe, expect, test } from "vitest"
import { getToolSchemas, listTools, loadTools, runTool } from "../src/index.ts"
import { runCli } from "./helpers.ts"
import { isolatedEnvironment, tmpProject, toolSource } from "./support/tmp-project.ts"

async function project(files: Record<string, string>, plugins: string[] = []) {
  const { env, home } = isolatedEnvironment()
  return loadTools({ directory: tmpProject(files), env, home, plugins })
}

const greetPlugin = (key: string, description: string) => `import { tool } from "@opencode-ai/plugin"
export const Greeter = async (input, options) => ({
  tool: {
    ${JSON.stringify(key)}: tool({
      description: ${JSON.stringify(description)},
      args: { name: tool.schema.string() },
      async execute(args) { return (options?.greeting ?? "hello") + " " + args.name + " in " + input.directory },
    }),
  },
})
`

describe("plugins", () => {
  test("register tools from a plugins/ file with the hook key as the tool name", async () => {
    const loaded = await project({ ".opencode/plugins/greet.ts": greetPlugin("Plugin-Case.Name", "greets") })
    expect(listTools(loaded).find((tool) => tool.source === "plugin")).toMatchObject({ id: "Plugin-Case.Name" })
    const result = await runTool(loaded, "Plugin-Case.Name", { name: "Ada" })
    expect(result.output).toBe(`hello Ada in ${loaded.directory}`)
  })

  test("an npm plugin installed the kit's way (npm install --prefix .opencode NAME) loads; a missing one names that command", async () => {
    const loaded = await project({
      "opencode.json": `{ "plugin": ["opencode-kit-greeter"] }`,
      ".opencode/package.json": `{ "dependencies": { "opencode-kit-greeter": "^1.0.0" } }`,
      ".opencode/node_modules/opencode-kit-greeter/package.json": `{ "name": "opencode-kit-greeter", "type": "module", "main": "./index.ts" }`,
      ".opencode/node_modules/opencode-kit-greeter/index.ts": greetPlugin("kit_greet", "installed in .opencode"),
    })
    expect(loaded.diagnostics).toEqual([])
    expect((await runTool(loaded, "kit_greet", { name: "Ada" })).output).toBe(`hello Ada in ${loaded.directory}`)

    const missing = await project({
      "opencode.json": `{ "plugin": ["opencode-kit-absent"] }`,
      ".opencode/tools/.keep": "",
    })
    expect(missing.diagnostics).toContainEqual(
      expect.objectContaining({
        code: "PLUGIN_LOAD_FAILED",
        message: expect.stringContaining(
          `run npm install --prefix .opencode opencode-kit-absent from the project folder ${missing.directory}`,
        ),
      }),
    )
    // A pinned version or range is what opencode installs, and what the command installs.
    const pinned = await project({
      "opencode.json": `{ "plugin": ["@scope/kit-absent@1.2.0", "kit-ranged@^2.1"] }`,
      ".opencode/tools/.keep": "",
    })
    const messages = pinned.diagnostics.map((diagnostic) => diagnostic.message).join("\n")
    expect(messages).toContain("opencode would install @scope/kit-absent@1.2.0 from npm")
    expect(messages).toContain("run npm install --prefix .opencode @scope/kit-absent@1.2.0 from the project folder")
    expect(messages).toContain("opencode would install kit-ranged@^2.1 from npm")
    expect(messages).toContain(
      `run npm install --prefix .opencode ${process.platform === "win32" ? '"kit-ranged@^2.1"' : "'kit-ranged@^2.1'"} from`,
    )
  })

  test("load path entries of the config's plugin list with their options, relative to the config file", async () => {
    const loaded = await project({
      "opencode.json": `{ "plugin": [["./pkgs/pkg-main", { "greeting": "hi" }]] }`,
      "pkgs/pkg-main/package.json": `{ "name": "pkg-main", "type": "module", "main": "./index.ts" }`,
      "pkgs/pkg-main/index.ts": greetPlugin("pkg_greet", "from a package"),
    })
    expect(loaded.diagnostics).toEqual([])
    expect((await runTool(loaded, "pkg_greet", { name: "Bo" })).output).toBe(`hi Bo in ${loaded.directory}`)
  })

  test("skip a package that only has exports['.'] and no index file, and say why", async () => {
    const loaded = await project({
      "opencode.json": `{ "plugin": ["./pkgs/exports-only"] }`,
      "pkgs/exports-only/package.json": `{ "name": "x", "type": "module", "exports": { ".": { "import": "./dist/index.js" } } }`,
      "pkgs/exports-only/dist/index.js": greetPlugin("never", "x"),
    })
    expect(loaded.tools).toEqual([])
    expect(loaded.diagnostics[0]).toMatchObject({ code: "PLUGIN_LOAD_FAILED" })
    expect(loaded.diagnostics[0]!.message).toContain(
      `has no "main", "module" or exports["./server"], and ${loaded.directory}/pkgs/exports-only has no index.{ts,tsx,js,mjs,cjs}: opencode finds no entry and skips the package silently (exports["."] is not read)`,
    )
  })

  test("load a --plugin path after the configured plugins so its tools win", async () => {
    const directory = tmpProject({
      ".opencode/tools/hello.ts": toolSource("file hello"),
      "dev-plugin/index.ts": greetPlugin("hello", "plugin hello"),
    })
    const { env, home } = isolatedEnvironment()
    const loaded = await loadTools({ directory, env, home, plugins: [path.join(directory, "dev-plugin")] })
    const hello = listTools(loaded).find((tool) => tool.id === "hello")
    expect(hello).toMatchObject({ source: "plugin", overrides: path.join(directory, ".opencode/tools/hello.ts") })
  })

  test("a plugins path that does not exist is named once, as given through the plugins option (the CLI says --plugin)", async () => {
    const directory = tmpProject({ ".opencode/tools/hello.ts": toolSource("file hello") })
    const missing = path.join(directory, "nowhere.ts")
    const { env, home } = isolatedEnvironment()
    const loaded = await loadTools({ directory, env, home, plugins: [missing] })
    expect(loaded.diagnostics).toEqual([
      expect.objectContaining({
        code: "PLUGIN_LOAD_FAILED",
        message: `plugin ${missing} (from the plugins option): no such file or folder; fix the path`,
      }),
    ])
    const cli = await runCli(["list", "--dir", directory, "--plugin", missing, "--engine", "node", "--no-global"], {
      env: { ...env, HOME: home },
    })
    expect(cli.stderr).toContain(`plugin ${missing} (from --plugin): no such file or folder; fix the path`)
  })

  test("a plugin whose hooks or thrown value are Proxies with throwing traps is left out with PLUGIN_LOAD_FAILED, not INTERNAL", async () => {
    const trap = (name: string) => `new Proxy({}, { ${name}() { throw new Error("${name} trap") } })`
    const directory = tmpProject({
      ".opencode/tools/hello.ts": toolSource("file hello"),
      ".opencode/plugins/keys.ts": `export const Keys = async () => ${trap("ownKeys")}
`,
      ".opencode/plugins/tools.ts": `export const Tools = async () => ({ tool: ${trap("ownKeys")} })
`,
      ".opencode/plugins/thrown.ts": `export const Thrown = async () => { throw ${trap("get")} }
`,
    })
    const { env, home } = isolatedEnvironment()
    const loaded = await loadTools({ directory, env, home, engine: "node" })
    const messages = loaded.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.message])
    expect(messages).toEqual(
      expect.arrayContaining([
        [
          "PLUGIN_LOAD_FAILED",
          expect.stringContaining("reading the hooks plugin function Keys returned threw: ownKeys trap"),
        ],
        [
          "PLUGIN_LOAD_FAILED",
          expect.stringContaining("reading the hooks plugin function Tools returned threw: ownKeys trap"),
        ],
        [
          "PLUGIN_LOAD_FAILED",
          expect.stringContaining("plugin function Thrown threw during init: a value that cannot be read"),
        ],
      ]),
    )
    expect(listTools(loaded).find((tool) => tool.id === "hello")?.source).toBe("file")
  })

  test("load plugins folder by folder: a project .opencode entry comes after the global plugins/ files", async () => {
    const { env, home } = isolatedEnvironment({
      ".config/opencode/plugins/global.ts": greetPlugin("who", "global file"),
    })
    const directory = tmpProject({
      ".opencode/opencode.json": `{ "plugin": ["./local/index.ts"] }`,
      ".opencode/local/index.ts": greetPlugin("who", "project entry"),
    })
    const loaded = await loadTools({ directory, env, home })
    expect(loaded.plugins.map((plugin) => path.relative(directory, plugin.file).startsWith(".."))).toEqual([
      true,
      false,
    ])
    const winner = listTools(loaded).find((tool) => tool.id === "who")!
    expect(loaded.tools.find((tool) => tool.file === winner.file)!.description).toBe("project entry")
  })

  test("reject a module with a non-function export and report a throwing plugin function", async () => {
    const loaded = await project({
      ".opencode/plugins/nonfunc.ts": `export const PI = 3.14\nexport const P = async () => ({ tool: { never: { description: "", args: {}, execute: async () => "" } } })\n`,
      ".opencode/plugins/thrower.ts": `export const a_ok = async () => ({ tool: { thrower_a_ok: { description: "", args: {}, execute: async () => "a" } } })
export const b_throws = async () => { throw new Error("plugin init boom") }
export const c_ok = async () => ({ tool: { thrower_c_ok: { description: "", args: {}, execute: async () => "c" } } })
`,
      ".opencode/plugins/v1noid.ts": `export default { server: async () => ({ tool: { v1: { description: "", args: {}, execute: async () => "" } } }) }\n`,
    })
    expect(loaded.tools.map((tool) => tool.id)).toEqual(["thrower_a_ok"])
    const messages = loaded.diagnostics.map((diagnostic) => diagnostic.message)
    expect(messages).toEqual([
      expect.stringContaining(`opencode rejects the whole module: "Plugin export is not a function" (export PI)`),
      expect.stringContaining("plugin function b_throws threw during init: plugin init boom"),
      expect.stringMatching(/must export id"; add an id$/),
    ])
  })

  test("apply tool.definition, tool.execute.before and tool.execute.after hooks", async () => {
    const loaded = await project({
      ".opencode/tools/echo.ts": toolSource("echo", "return 'echo ' + JSON.stringify(args)"),
      ".opencode/plugins/hooks.ts": `export const Hooks = async () => ({
  "tool.definition": async (input, output) => { if (input.toolID === "echo") output.description = "CHANGED by tool.definition" },
  "tool.execute.before": async (input, output) => { output.args.x = "mutated-in-place"; output.args = { replaced: true } },
  "tool.execute.after": async (input, output) => { output.output += " [after-hook appended]"; output.title = "title set by after"; output.metadata.fromAfter = true },
})
`,
    })
    const schemas = await getToolSchemas(loaded)
    expect(schemas.success && schemas.value[0]!.description).toBe("CHANGED by tool.definition")
    const result = await runTool(loaded, "echo", { x: "original", n: 1 })
    expect(result.output).toBe(`echo {"x":"mutated-in-place","n":1} [after-hook appended]`)
    expect(result.title).toBe("title set by after")
    expect(result.metadata).toEqual({ truncated: false, fromAfter: true })
  })

  test("a tool.execute.before hook that throws blocks the call with its message", async () => {
    const loaded = await project({
      ".opencode/tools/echo.ts": toolSource("echo"),
      ".opencode/plugins/guard.ts": `export const Guard = async () => ({ "tool.execute.before": async () => { throw new Error("blocked by tool.execute.before") } })\n`,
    })
    const result = await runTool(loaded, "echo", {})
    expect(result).toMatchObject({ status: "error", output: "blocked by tool.execute.before" })
  })

  test("load a package with only a module entry, one with only index.ts, and one with exports['.'] beside index.js", async () => {
    const loaded = await project({
      "opencode.json": `{ "plugin": ["./pkgs/with-module", "./pkgs/with-index", "./pkgs/exports-index"] }`,
      "pkgs/exports-index/package.json": `{ "name": "exports-index", "type": "module", "exports": { ".": "./dist/index.js" } }`,
      "pkgs/exports-index/index.js": greetPlugin("exports_index_tool", "from index.js"),
      "pkgs/with-module/package.json": `{ "name": "with-module", "type": "module", "module": "src/entry.ts" }`,
      "pkgs/with-module/src/entry.ts": greetPlugin("module_tool", "from module"),
      "pkgs/with-index/package.json": `{ "name": "with-index", "type": "module" }`,
      "pkgs/with-index/index.ts": greetPlugin("index_tool", "from index.ts"),
    })
    expect(loaded.diagnostics).toEqual([])
    expect(loaded.tools.map((tool) => [tool.id, path.relative(loaded.directory, tool.file)])).toEqual([
      ["module_tool", path.join("pkgs", "with-module", "src", "entry.ts")],
      ["index_tool", path.join("pkgs", "with-index", "index.ts")],
      ["exports_index_tool", path.join("pkgs", "exports-index", "index.js")],
    ])
  })

  test("load an npm-style file: spec as the package folder, relative to the project directory", async () => {
    const loaded = await project({
      ".opencode/opencode.json": `{ "plugin": [["file:./pkgs/pkg-file", { "greeting": "hi" }]] }`,
      "pkgs/pkg-file/package.json": `{ "name": "pkg-file", "type": "module", "main": "./lib/index.ts" }`,
      "pkgs/pkg-file/lib/index.ts": greetPlugin("file_tool", "from a file: spec"),
    })
    expect(loaded.diagnostics).toEqual([])
    expect((await runTool(loaded, "file_tool", { name: "Cy" })).output).toBe(`hi Cy in ${loaded.directory}`)
  })

  test("a file: spec naming no folder says it is resolved against the project directory", async () => {
    const loaded = await project({ "opencode.json": `{ "plugin": ["file:../nowhere"] }` })
    expect(loaded.diagnostics[0]).toMatchObject({ code: "PLUGIN_LOAD_FAILED" })
    expect(loaded.diagnostics[0]!.message).toContain(
      `${path.resolve(loaded.directory, "../nowhere")} is not a folder (a file: spec is resolved against the project directory`,
    )
  })

  test("reading input.client during init (keys, destructuring, keeping it) loads the plugin and its tools", async () => {
    const loaded = await project({
      ".opencode/plugins/client.ts": `let kept
export const ReadsClient = async (input) => {
  const keys = Object.keys(input.client)
  const { app, session } = input.client
  kept = input.client
  return { tool: {
    client_keys: { description: "", args: {}, execute: async () => keys.join(",") },
    client_kept: { description: "", args: {}, execute: async () => typeof app.agents + " " + typeof session.prompt + " " + Object.keys(kept.session) },
  } }
}
`,
    })
    expect(loaded.diagnostics).toEqual([])
    expect((await runTool(loaded, "client_keys", {})).output).toBe(
      "_client,global,project,pty,config,tool,instance,path,vcs,session,command,provider,find,file,app,mcp,lsp,formatter,tui,auth,event",
    )
    expect((await runTool(loaded, "client_kept", {})).output).toBe("function function _client")
  })

  test("a throwing event hook does not fail the call; its error is reported with the call", async () => {
    const loaded = await project({
      ".opencode/plugins/events.ts": `export const Seen = async () => {
  const states = []
  return {
    event: async ({ event }) => { states.push(event.properties.part.state.status) },
    tool: { seen: { description: "", args: {}, execute: async () => states.join(",") } },
  }
}
export const Breaks = async () => ({ event: async ({ event }) => { if (event.properties.part.state.status === "running") throw new Error("event boom") } })
`,
    })
    const first = await runTool(loaded, "seen", {}, { sessionID: "ses_events" })
    expect(first).toMatchObject({ status: "completed", output: "pending,running" })
    expect(first.hookErrors).toEqual([
      {
        hook: "event",
        file: path.join(loaded.directory, ".opencode/plugins/events.ts"),
        message: "threw on message.part.updated (running): event boom",
      },
    ])
    const second = await runTool(loaded, "seen", {}, { sessionID: "ses_events" })
    expect(second.output).toBe("pending,running,completed,pending,running")
  })

  test("chat.params and chat.headers share one output per model request across plugins", async () => {
    const loaded = await project({
      ".opencode/plugins/params.ts": `const seen = []
export const First = async () => ({
  "chat.params": async (_input, output) => { output.options.first = true; output.temperature = 0.5 },
  "chat.headers": async (_input, output) => { output.headers["x-first"] = "1" },
})
export const Second = async () => ({
  "chat.params": async (input, output) => { seen.push(input.provider.id + ":" + input.model.id + ":" + output.temperature + ":" + Object.keys(output.options)) },
  "chat.headers": async (_input, output) => { seen.push(Object.keys(output.headers).join()) },
  tool: { params: { description: "", args: {}, execute: async () => seen.join(" ") } },
})
`,
    })
    const result = await runTool(loaded, "params", {}, { model: { providerID: "acme", modelID: "m1" } })
    expect(result.output).toBe("acme:m1:0.5:first x-first acme:m1:0.5:first x-first")
  })
})
