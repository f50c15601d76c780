import { existsSync, readFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, test } from "vitest"
import { callTool, closeProject, getToolSchemas, listTools, loadTools, runTool } from "../src/index.ts"
import { opencode } from "./helpers.ts"
import { isolatedEnvironment, loadedUnder, tmpProject, toolSource } from "./support/tmp-project.ts"

async function project(files: Record<string, string>) {
  const { env, home } = isolatedEnvironment()
  const directory = tmpProject(files)
  return loadTools({ directory, env, home })
}

function dataDirectory() {
  return tmpProject({}, { git: false })
}

describe("runTool results", () => {
  test("a string result is the model's text, with an empty title and truncated:false metadata", async () => {
    const loaded = await project({
      ".opencode/tools/echo.ts": toolSource("echo", "return 'said ' + args.text", "{ text: tool.schema.string() }"),
    })
    const result = await runTool(loaded, "echo", { text: "hi" })
    expect(result).toMatchObject({
      name: "echo",
      id: "echo",
      status: "completed",
      output: "said hi",
      title: "",
      metadata: { truncated: false },
      truncated: false,
      outputPath: undefined,
    })
  })

  test("an object result shows only output to the model and keeps title and metadata", async () => {
    const loaded = await project({
      ".opencode/tools/obj.ts": toolSource(
        "obj",
        `return { title: "Custom Title", output: "visible", metadata: { k: 1, nested: { a: "b" } } }`,
      ),
    })
    const result = await runTool(loaded, "obj", {})
    expect(result.output).toBe("visible")
    expect(result.title).toBe("Custom Title")
    expect(JSON.stringify(result.metadata)).toBe(`{"k":1,"nested":{"a":"b"},"truncated":false}`)
  })

  test("arguments reach execute raw, unvalidated and without defaults, as in opencode 1.18", async () => {
    const loaded = await project({
      ".opencode/tools/raw.ts": toolSource(
        "raw",
        "return JSON.stringify(args)",
        `{ count: tool.schema.number().min(1), def: tool.schema.string().default("x"), n: tool.schema.coerce.number() }`,
      ),
    })
    const result = await runTool(loaded, "raw", { count: "five", n: "5", extra: true })
    expect(result.status).toBe("completed")
    expect(result.output).toBe(`{"count":"five","n":"5","extra":true}`)
  })

  test("opt-in validation gives the built-in wrapper's exact text and does not run the tool", async () => {
    const loaded = await project({
      ".opencode/tools/strict.ts": toolSource(
        "strict",
        "throw new Error('must not run')",
        `{ count: tool.schema.number(), mode: tool.schema.enum(["a", "b"]) }`,
      ),
    })
    const result = await runTool(loaded, "strict", { count: "five" }, { validate: true })
    expect(result.status).toBe("error")
    expect(result.error?.code).toBe("ARGS_INVALID")
    expect(result.output).toBe(
      `The strict tool was called with invalid arguments: count: Invalid input: expected number, received string; mode: Invalid option: expected one of "a"|"b".\nPlease rewrite the input so it satisfies the expected schema.`,
    )
  })

  test("opt-in validation applies defaults and uses the tool's formatValidationError", async () => {
    const loaded = await project({
      ".opencode/tools/formatted.ts": `import { tool } from "@opencode-ai/plugin"
export default {
  ...tool({ description: "f", args: { n: tool.schema.number().default(3) }, execute: async (args) => "n=" + args.n }),
  formatValidationError: (error: { issues: unknown[] }) => "custom detail (" + error.issues.length + ")",
}
`,
    })
    expect((await runTool(loaded, "formatted", {}, { validate: true })).output).toBe("n=3")
    expect((await runTool(loaded, "formatted", { n: "x" }, { validate: true })).output).toBe(
      "The formatted tool was called with invalid arguments: custom detail (1).\nPlease rewrite the input so it satisfies the expected schema.",
    )
  })

  test("a thrown error becomes its message, a thrown non-Error its value", async () => {
    const loaded = await project({
      ".opencode/tools/thrower.ts": `export const error = { description: "", args: {}, execute: async () => { throw new Error("boom from tool") } }
export const typeerror = { description: "", args: {}, execute: async () => { throw new TypeError("bad type inside") } }
export const string = { description: "", args: {}, execute: async () => { throw "a thrown string" } }
export const sync = { description: "", args: {}, execute: () => { throw new Error("sync boom") } }
`,
    })
    for (const [id, text] of [
      ["thrower_error", "boom from tool"],
      ["thrower_typeerror", "bad type inside"],
      ["thrower_string", "a thrown string"],
      ["thrower_sync", "sync boom"],
    ] as const) {
      const result = await runTool(loaded, id, {})
      expect(result).toMatchObject({ status: "error", output: text, error: { code: "TOOL_THREW" } })
    }
  })

  test("results opencode cannot send give the text the model would read and say what to fix", async () => {
    const loaded = await project({
      ".opencode/tools/bad.ts": `export const undef = { description: "", args: {}, execute: async () => undefined }
export const number = { description: "", args: {}, execute: async () => 42 }
export const nooutput = { description: "", args: {}, execute: async () => ({ title: "t" }) }
`,
    })
    const undef = await runTool(loaded, "bad_undef", {})
    expect(undef).toMatchObject({ status: "error", output: "undefined is not an object (evaluating 'mo.output')" })
    expect(undef.error).toMatchObject({ code: "TOOL_BAD_RESULT" })
    expect(undef.error?.message).toContain(
      "bad.ts: bad_undef: execute returned undefined; return a string or { output: string }",
    )
    const nooutput = await runTool(loaded, "bad_nooutput", {})
    expect(nooutput.output).toBe("undefined is not an object (evaluating 'c.split')")
    const number = await runTool(loaded, "bad_number", {})
    expect(number.output).toBe("undefined is not an object (evaluating 'c.split')")
    expect(number.error?.message).toContain("a number (42)")
  })

  test("a result whose getter or Proxy trap throws fails the call with that error (TOOL_BAD_RESULT), not tool-tester", async () => {
    const loaded = await project({
      ".opencode/tools/trap.ts": `export const getter = { description: "", args: {}, execute: async () => ({ output: "x", metadata: { get boom() { throw new Error("getter boom") } } }) }
export const proxy = { description: "", args: {}, execute: async () => new Proxy({}, { get(_target, key) { if (key === "then") return undefined; if (key === "output") return "proxied"; throw new Error("trap " + String(key)) } }) }
`,
    })
    const getter = await runTool(loaded, "trap_getter", {})
    expect(getter).toMatchObject({ status: "error", output: "getter boom", error: { code: "TOOL_BAD_RESULT" } })
    expect(getter.error?.message).toContain("trap_getter: reading the object execute returned threw: getter boom")
    const proxy = await runTool(loaded, "trap_proxy", {})
    expect(proxy).toMatchObject({ status: "error", output: "trap metadata", error: { code: "TOOL_BAD_RESULT" } })
  })

  test("a tool that hangs stops at the timeout with its abort signal fired", async () => {
    const loaded = await project({
      ".opencode/tools/hang.ts": toolSource(
        "hang",
        `await new Promise((resolve) => context.abort.addEventListener("abort", resolve)); (globalThis as any).__abortedReason = String(context.abort.reason); return "late"`,
      ),
    })
    const result = await runTool(loaded, "hang", {}, { timeoutMs: 50 })
    expect(result).toMatchObject({ status: "error", error: { code: "TOOL_TIMEOUT" } })
    expect(result.output).toBe("the tool did not finish within 50 ms; its abort signal was fired")
  })

  test("a timeoutMs a timer cannot wait for is refused as USAGE before the tool runs, as the CLI's --timeout is", async () => {
    const loaded = await project({ ".opencode/tools/quick.ts": toolSource("quick") })
    // Node and Bun fire a timer of 2^31 ms or more at once: every call would end as TOOL_TIMEOUT.
    for (const timeoutMs of [2 ** 31, 2_000_000_001, Number.POSITIVE_INFINITY, 0, -5, Number.NaN]) {
      await expect(runTool(loaded, "quick", {}, { timeoutMs }), String(timeoutMs)).rejects.toMatchObject({
        code: "USAGE",
        message: `timeoutMs must be a number of milliseconds above 0 and at most 2000000000 (about 23 days: Node and Bun fire a longer timer at once), not ${timeoutMs}`,
      })
      await expect(callTool(loaded, { name: "quick", rawArguments: "{}" }, { timeoutMs })).rejects.toMatchObject({
        code: "USAGE",
      })
    }
    await expect(runTool(loaded, "quick", {}, { timeoutMs: "100" as never })).rejects.toThrow(/not "100"$/)
    expect(await runTool(loaded, "quick", {}, { timeoutMs: 2_000_000_000 })).toMatchObject({ status: "completed" })
  })

  test("a name, a call or options a call cannot be made with are refused as USAGE saying what to pass", async () => {
    const loaded = await project({ ".opencode/tools/quick.ts": toolSource("quick") })
    await expect(runTool(loaded, 42 as never, {})).rejects.toMatchObject({
      code: "USAGE",
      message: "runTool's name must be the tool's name, a string, not 42",
      data: { option: "name" },
    })
    // The parsed arguments where the text belongs, the commonest slip.
    await expect(callTool(loaded, { name: "quick", rawArguments: { a: 1 } as never })).rejects.toMatchObject({
      code: "USAGE",
      message: `callTool's call.rawArguments must be the argument text the model sends, a string such as '{"city":"Paris"}', not an object: JSON.stringify the arguments, or pass them to runTool()`,
    })
    await expect(callTool(loaded, "quick" as never)).rejects.toMatchObject({
      code: "USAGE",
      message: `callTool's call must be { name, rawArguments }, the tool's name and the argument text the model sends, not "quick"`,
    })
    await expect(runTool(loaded, "quick", {}, null as never)).rejects.toMatchObject({
      code: "USAGE",
      message: "runTool's options must be an object, not null",
    })
    // opencode refuses such a tool_output limit (CONFIG_INVALID); 0 lines would cut every output.
    for (const [option, value, shown] of [
      ["maxLines", 0, "0"],
      ["maxLines", "5", '"5"'],
      ["maxBytes", -1, "-1"],
      ["maxBytes", 1.5, "1.5"],
    ] as const) {
      await expect(runTool(loaded, "quick", {}, { [option]: value as never })).rejects.toMatchObject({
        code: "USAGE",
        message: `${option} must be a whole number above 0, not ${shown}`,
        data: { option },
      })
    }
    // A key it does not know would be dropped without a word: `timeout` would run with no bound.
    await expect(runTool(loaded, "quick", {}, { timeout: 100 } as never)).rejects.toMatchObject({
      code: "USAGE",
      message: expect.stringMatching(/^runTool has no option "timeout"; did you mean "timeoutMs"\?: it takes model, /),
      data: { option: "timeout" },
    })
    await expect(
      callTool(loaded, { name: "quick", rawArguments: "{}" }, { abortSignal: undefined } as never),
    ).rejects.toMatchObject({ code: "USAGE", data: { option: "abortSignal" } })
    // Arguments are the model's: anything goes, as in opencode.
    expect(await runTool(loaded, "quick", null)).toMatchObject({ status: "completed", args: null })
  })

  for (const engine of ["node", "bun"] as const) {
    const skip = engine === "bun" ? opencode.reason : undefined
    test.skipIf(skip !== undefined)(
      `a project closeProject() closed refuses later calls under the ${engine} engine, and closing twice is harmless${skip ? ` (${skip})` : ""}`,
      async () => {
        const { project: loaded } = await loadedUnder(engine, { ".opencode/tools/quick.ts": toolSource("quick") })
        expect(await runTool(loaded, "quick", {})).toMatchObject({ status: "completed" })
        closeProject(loaded)
        closeProject(loaded)
        const closed = {
          code: "ENGINE_FAILED",
          message: "this project was closed (closeProject): load it again with loadTools() to call its tools",
        }
        await expect(runTool(loaded, "quick", {})).rejects.toMatchObject(closed)
        await expect(callTool(loaded, { name: "quick", rawArguments: "{}" })).rejects.toMatchObject(closed)
        await expect(getToolSchemas(loaded)).rejects.toMatchObject(closed)
        // The snapshot itself stays readable.
        expect(listTools(loaded).map((tool) => tool.id)).toContain("quick")
      },
    )
  }

  for (const engine of ["node", "bun"] as const) {
    const skip = engine === "bun" ? opencode.reason : undefined
    test.skipIf(skip !== undefined)(
      `arguments with no JSON text are refused as USAGE under the ${engine} engine, before the tool runs${skip ? ` (${skip})` : ""}`,
      async () => {
        const { project: loaded } = await loadedUnder(engine, { ".opencode/tools/quick.ts": toolSource("quick") })
        const looped: Record<string, unknown> = { a: 1 }
        looped["self"] = looped
        const throwing = {
          get city(): string {
            throw new Error("no city yet")
          },
        }
        for (const [args, why] of [
          [looped, "Converting circular structure to JSON"],
          [{ n: 10n }, "BigInt"],
          [throwing, "(no city yet)"],
        ] as const) {
          await expect(runTool(loaded, "quick", args)).rejects.toMatchObject({
            code: "USAGE",
            message: expect.stringContaining(why),
            data: { option: "args" },
          })
        }
        await expect(runTool(loaded, "quick", looped)).rejects.toThrow(
          /^runTool's args have no JSON text \(.*\), and a model's call is JSON text, so no model can make this one: pass plain data/,
        )
        // What JSON.stringify writes, even leaving things out, is the call's text: it runs.
        expect(await runTool(loaded, "quick", { when: new Date(0), skip: () => 1 })).toMatchObject({
          status: "completed",
        })
        closeProject(loaded)
      },
    )
  }

  test("refuses to run a built-in and names the custom tools instead", async () => {
    const loaded = await project({ ".opencode/tools/mine.ts": toolSource("mine") })
    await expect(runTool(loaded, "bash", { command: "ls" })).rejects.toMatchObject({
      code: "TOOL_NOT_FOUND",
      message: "bash is a built-in opencode tool; tool-tester runs custom and plugin tools only: call one of mine",
    })
  })

  test("names the custom tools in opencode's order (localeCompare), not in the order they were found", async () => {
    // Found as Zed, mine (tool files, by code point), then aaa (a plugin's); opencode lists aaa, mine, Zed.
    const loaded = await project({
      ".opencode/tools/mine.ts": toolSource("mine"),
      ".opencode/tools/Zed.ts": toolSource("Zed"),
      ".opencode/plugins/late.ts": `export const Late = async () => ({ tool: { aaa: { description: "a", args: {}, execute: async () => "a" } } })\n`,
    })
    expect(loaded.tools.map((tool) => tool.id)).toEqual(["Zed", "mine", "aaa"])
    await expect(runTool(loaded, "bash", { command: "ls" })).rejects.toMatchObject({
      message:
        "bash is a built-in opencode tool; tool-tester runs custom and plugin tools only: call one of aaa, mine, Zed",
    })
  })
})

describe("runTool truncation", () => {
  const lines = (count: number) => `Array.from({ length: ${count} }, (_, index) => "line " + index).join("\\n")`

  test("cuts long output, writes the full text to tool-output/tool_<id> and uses the Task hint by default", async () => {
    const loaded = await project({ ".opencode/tools/long.ts": toolSource("long", `return ${lines(3000)}`) })
    const data = dataDirectory()
    const result = await runTool(loaded, "long", {}, { dataDirectory: data })
    expect(result.truncated).toBe(true)
    expect(path.dirname(result.outputPath!)).toBe(path.join(data, "tool-output"))
    expect(path.basename(result.outputPath!)).toMatch(/^tool_[0-9a-f]{12}[0-9A-Za-z]{14}$/)
    expect(readFileSync(result.outputPath!, "utf8")).toBe(
      Array.from({ length: 3000 }, (_, index) => `line ${index}`).join("\n"),
    )
    expect(
      result.output.endsWith(
        `line 1999\n\n...1000 lines truncated...\n\nThe tool call succeeded but the output was truncated. Full output saved to: ${result.outputPath}\nUse the Task tool to have explore agent process this file with Grep and Read (with offset/limit). Do NOT read the full file yourself - delegate to save context.`,
      ),
    ).toBe(true)
    expect(result.metadata).toEqual({ truncated: true, outputPath: result.outputPath })
  })

  test("uses the Grep hint when task is denied, by option or by the project's config", async () => {
    const hint = "\nUse Grep to search the full content or Read with offset/limit to view specific sections."
    const loaded = await project({ ".opencode/tools/long.ts": toolSource("long", `return ${lines(2001)}`) })
    const denied = await runTool(
      loaded,
      "long",
      {},
      { dataDirectory: dataDirectory(), permissions: { deny: ["task"] } },
    )
    expect(denied.output.endsWith(hint)).toBe(true)
    expect(denied.output).toContain("...1 lines truncated...")
    const configured = await project({
      "opencode.json": `{ "permission": { "task": "deny" } }`,
      ".opencode/tools/long.ts": toolSource("long", `return ${lines(2001)}`),
    })
    expect((await runTool(configured, "long", {}, { dataDirectory: dataDirectory() })).output.endsWith(hint)).toBe(true)
  })

  test("applies the config's tool_output limits, and options override them", async () => {
    const loaded = await project({
      "opencode.jsonc": `// limits
{ "tool_output": { "max_lines": 5, "max_bytes": 1000, }, }`,
      ".opencode/tools/ten.ts": toolSource("ten", `return ${lines(10)}`),
    })
    const data = dataDirectory()
    expect((await runTool(loaded, "ten", {}, { dataDirectory: data })).output).toContain(
      "line 4\n\n...5 lines truncated...",
    )
    expect((await runTool(loaded, "ten", {}, { dataDirectory: data, maxLines: 8 })).output).toContain(
      "...2 lines truncated...",
    )
    expect(existsSync(path.join(data, "tool-output"))).toBe(true)
  })
})

describe("the context a tool receives", () => {
  test("has opencode's keys in opencode's order, with worktree the git root", async () => {
    const loaded = await project({
      ".opencode/tools/ctx.ts": toolSource(
        "ctx",
        `return JSON.stringify({ keys: Object.keys(context), types: Object.fromEntries(Object.entries(context).map(([k, v]) => [k, typeof v])), agent: context.agent, directory: context.directory, worktree: context.worktree, extra: context.extra, aborted: context.abort.aborted })`,
      ),
    })
    const result = await runTool(loaded, "ctx", {}, { model: { modelID: "gpt-5" } })
    const seen = JSON.parse(result.output)
    expect(seen.keys).toEqual([
      "sessionID",
      "abort",
      "messageID",
      "callID",
      "extra",
      "agent",
      "messages",
      "metadata",
      "ask",
      "directory",
      "worktree",
    ])
    expect(seen.types).toMatchObject({
      sessionID: "string",
      abort: "object",
      extra: "object",
      messages: "object",
      metadata: "function",
      ask: "function",
    })
    expect(seen).toMatchObject({
      agent: "build",
      directory: loaded.directory,
      worktree: loaded.directory,
      aborted: false,
    })
    expect(seen.extra).toMatchObject({ model: { id: "gpt-5" }, bypassAgentCheck: false, promptOps: {} })
  })

  test('uses "/" as the worktree outside a git repository', async () => {
    const { env, home } = isolatedEnvironment()
    const directory = path.join("/tmp", `tool-tester-nogit-${process.pid}-${Date.now()}`)
    const { mkdirSync, writeFileSync, rmSync, symlinkSync } = await import("node:fs")
    mkdirSync(path.join(directory, ".opencode", "tools"), { recursive: true })
    try {
      symlinkSync(path.resolve(import.meta.dirname, "..", "node_modules"), path.join(directory, "node_modules"))
      writeFileSync(path.join(directory, ".opencode/tools/where.ts"), toolSource("where", "return context.worktree"))
      const loaded = await loadTools({ directory, env, home, global: false })
      expect((await runTool(loaded, "where", {})).output).toBe("/")
    } finally {
      rmSync(directory, { recursive: true, force: true })
    }
  })

  test("records ask() calls, resolves allowed ones and rejects denied ones with opencode's text", async () => {
    const loaded = await project({
      "opencode.json": `{ "permission": { "*": "allow", "probe": "deny" } }`,
      ".opencode/tools/asker.ts": toolSource(
        "asker",
        `await context.ask({ permission: "fine", patterns: ["a"], always: [], metadata: {} }); await context.ask({ permission: "probe", patterns: ["*"], always: ["*"], metadata: { why: 1 } }); return "unreachable"`,
      ),
    })
    const result = await runTool(loaded, "asker", {})
    expect(result.status).toBe("error")
    expect(result.output).toBe(
      `The user has specified a rule which prevents you from using this specific tool call. Here are some of the relevant rules [{"permission":"*","action":"allow","pattern":"*"},{"permission":"*","action":"allow","pattern":"*"},{"permission":"probe","action":"deny","pattern":"*"}]`,
    )
    expect(result.asks.map((ask) => [ask.permission, ask.decision])).toEqual([
      ["fine", "allow"],
      ["probe", "deny"],
    ])
    expect(result.asks[1]!.metadata).toEqual({ why: 1 })
  })

  test("answers ask rules with the ask policy, and records metadata() calls", async () => {
    const loaded = await project({
      "opencode.json": `{ "permission": { "bash": "ask" } }`,
      ".opencode/tools/asker.ts": toolSource(
        "asker",
        `context.metadata({ title: "working", metadata: { step: 1 } }); await context.ask({ permission: "bash", patterns: ["ls"], always: ["ls *"], metadata: {} }); return "ran"`,
      ),
    })
    const allowed = await runTool(loaded, "asker", {})
    expect(allowed.output).toBe("ran")
    expect(allowed.metadataCalls).toEqual([{ title: "working", metadata: { step: 1 } }])
    expect(allowed.asks[0]).toMatchObject({ decision: "allow", rule: { action: "ask" } })
    const rejected = await runTool(loaded, "asker", {}, { permissions: { ask: "deny" } })
    expect(rejected.output).toBe("The user rejected permission to use this specific tool call.")
  })
})

describe("data directories", () => {
  test("default to a folder under the OS temp dir and name opencode's own only on request", async () => {
    const { defaultDataDirectory, opencodeDataDirectory } = await import("../src/index.ts")
    const os = await import("node:os")
    expect(defaultDataDirectory().startsWith(os.tmpdir())).toBe(true)
    expect(opencodeDataDirectory({ XDG_DATA_HOME: "/x/data" }, "/home/me")).toBe("/x/data/opencode")
    expect(opencodeDataDirectory({}, "/home/me")).toBe("/home/me/.local/share/opencode")
  })
})
