import { spawnSync } from "node:child_process"
import { existsSync, readFileSync, symlinkSync, writeFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, test } from "vitest"
import { fixture, jsonError, packageRoot, rawControlCharacters, runCli, useTmpDir, writeFiles } from "../helpers.ts"
import { isRunning } from "../support/processes.ts"
import { isolatedHome } from "../support/isolated-home.ts"

const basic = fixture("cli-basic")
const outcomes = fixture("cli-run-outcomes")

type RunJson = {
  name: string
  id: string
  status: "completed" | "error"
  output: string
  title: string
  metadata: Record<string, unknown>
  attachments: unknown[] | null
  truncated: boolean
  outputPath: string | null
  asks: Array<{ permission: string; decision: string }>
  durationMs: number
  args: unknown
  repaired: boolean
  rerouted: boolean
  error?: { code: string; message: string }
  console: { stdout: string; stderr: string; droppedBytes: { stdout: number; stderr: number } }
  escapedErrors?: Array<{ kind: string; message: string }>
}

const run = async (args: string[], options: Parameters<typeof runCli>[1] = {}) => {
  const result = await runCli(["run", ...args, "--no-global", "--json"], options)
  return { ...result, json: () => JSON.parse(result.stdout) as RunJson }
}

describe("tool-tester run", { timeout: 60_000 }, () => {
  test.each(["bun", "node"])(
    "--args runs the tool and prints every field of the result as JSON (%s engine)",
    async (engine) => {
      const result = await run(["greet", "--dir", basic, "--args", '{"name":"Ada"}', "--engine", engine])
      expect(result.exitCode).toBe(0)
      expect(result.stderr).toBe("")
      const json = result.json() as RunJson & { engine: { name: string; version: string; binary: string } }
      expect(json.engine.name).toBe(engine)
      expect(json.engine.version).toBe(engine === "bun" ? "1.3.14" : process.versions.node)
      expect(Object.keys(json)).toEqual([
        "name",
        "id",
        "status",
        "output",
        "title",
        "metadata",
        "attachments",
        "truncated",
        "outputPath",
        "asks",
        "durationMs",
        "args",
        "repaired",
        "rerouted",
        "console",
        "engine",
      ])
      expect(json).toMatchObject({
        name: "greet",
        id: "greet",
        status: "completed",
        output: "Hello, Ada!",
        title: "Greeted Ada",
        attachments: null,
        truncated: false,
        outputPath: null,
        asks: [],
      })
      // The tool runs with the project as working directory, as under opencode.
      expect(json.metadata).toMatchObject({ cwd: true, truncated: false })
    },
  )

  test.each(["bun", "node"])(
    "--args with a number past a double's range reaches the tool as Infinity, as a model's JSON does, not as null (%s engine)",
    async (engine) => {
      const result = await run(["math_add", "--dir", basic, "--args", '{"a":1e400,"b":-1e400}', "--engine", engine])
      expect(result.exitCode).toBe(0)
      expect(result.json().output).toBe("NaN")
      const finite = await run(["math_add", "--dir", basic, "--args", '{"a":1e300,"b":1}', "--engine", engine])
      expect(finite.json().output).toBe("1e+300")
    },
  )

  test("key=value pairs are read by the tool's schema: numbers, booleans, JSON arrays, text", async () => {
    const result = await run(["greet", "--dir", basic, "name=007", "times=2", "loud=true", 'tags=["a","b"]'])
    expect(result.exitCode).toBe(0)
    expect(result.json().args).toEqual({ name: "007", times: 2, loud: true, tags: ["a", "b"] })
    expect(result.json().output).toBe("HELLO, 007!\nHELLO, 007!")
  })

  test("a key=value that does not fit the schema exits 1 with ARGS_UNPARSABLE", async () => {
    const result = await run(["greet", "--dir", basic, "name=Ada", "times=two"])
    expect(result.exitCode).toBe(1)
    expect(result.stdout).toBe("")
    expect(jsonError(result)).toMatchObject({ code: "ARGS_UNPARSABLE", message: expect.stringContaining("times=two") })
  })

  test("a key=value number spelled as JSON cannot spell it (0x10) exits 1 with ARGS_UNPARSABLE, not 16", async () => {
    const result = await run(["greet", "--dir", basic, "name=Ada", "times=0x10"])
    expect(result.exitCode).toBe(1)
    expect(result.stdout).toBe("")
    expect(jsonError(result)).toMatchObject({
      code: "ARGS_UNPARSABLE",
      message:
        "times=0x10: the tool's schema says times is an integer, written as JSON (5, -2); fix the value, or pass exact JSON with --args",
    })
  })

  test("no argument form runs the tool with {}", async () => {
    const result = await run(["throws", "--dir", outcomes])
    expect(result.json().args).toEqual({})
  })

  test("--raw-args with broken JSON is rerouted to invalid: status completed, exit 6", async () => {
    const result = await run(["greet", "--dir", basic, "--raw-args", "{not json"])
    expect(result.exitCode).toBe(6)
    const json = result.json()
    expect(json).toMatchObject({
      name: "greet",
      id: "invalid",
      status: "completed",
      rerouted: true,
      title: "Invalid Tool",
    })
    expect(json.output).toMatch(
      /^The arguments provided to the tool are invalid: Invalid input for tool greet: JSON parsing failed/,
    )
    expect(jsonError(result).code).toBe("TOOL_REROUTED")
  })

  test("without --json the failure is still one line, the quoted newline shown as \\n", async () => {
    const result = await runCli(["run", "greet", "--dir", basic, "--raw-args", "{not json"])
    expect(result.exitCode).toBe(6)
    const failure = result.stderr.trimEnd().split("\n")
    expect(failure).toHaveLength(1)
    expect(failure[0]).toContain(
      "JSON parsing failed: Text: {not json.\\nError message: JSON Parse error: Expected '}' [TOOL_REROUTED]",
    )
  })

  test("--raw-args in the wrong case with broken JSON fails without running the tool: exit 2", async () => {
    const result = await run(["GREET", "--dir", basic, "--raw-args", "{broken"])
    expect(result.exitCode).toBe(2)
    expect(result.json()).toMatchObject({ name: "GREET", id: "GREET", status: "error", repaired: true })
    expect(result.json().output).toMatch(/^Invalid input for tool greet: JSON parsing failed: Text: \{broken\./)
    expect(jsonError(result).code).toBe("ARGS_INVALID")
  })

  test("--raw-args with good JSON runs the tool", async () => {
    const result = await run(["greet", "--dir", basic, "--raw-args", '{"name":"Raw"}'])
    expect(result.exitCode).toBe(0)
    expect(result.json().output).toBe("Hello, Raw!")
  })

  test("--plugin adds a plugin whose tools can be run", async () => {
    const result = await run(["shout", "--plugin", "./extra-plugin.ts", "word=hey"], { cwd: basic })
    expect(result.exitCode).toBe(0)
    expect(result.json()).toMatchObject({ id: "shout", output: "HEY" })
  })

  test("a name in the wrong case is repaired to the lowercase tool", async () => {
    const result = await run(["GREET", "--dir", basic, "--args", '{"name":"Ada"}'])
    expect(result.exitCode).toBe(0)
    expect(result.json()).toMatchObject({ name: "GREET", id: "greet", repaired: true, rerouted: false })
  })

  test("an unknown name is rerouted to invalid with the list of tools, exit 6", async () => {
    const result = await run(["nope", "--dir", basic])
    expect(result.exitCode).toBe(6)
    expect(result.json().output).toContain("Model tried to call unavailable tool 'nope'. Available tools: bash, edit")
  })

  test("run invalid calls the invalid tool directly, as a model can", async () => {
    const result = await run(["invalid", "--dir", basic, "--args", '{"tool":"x","error":"y"}'])
    expect(result.exitCode).toBe(0)
    expect(result.json()).toMatchObject({ id: "invalid", output: "The arguments provided to the tool are invalid: y" })
  })

  test("the invalid tool with missing arguments fails validation: exit 2", async () => {
    const result = await run(["invalid", "--dir", basic, "--args", "{}"])
    expect(result.exitCode).toBe(2)
    expect(result.json().error?.code).toBe("ARGS_INVALID")
  })

  test("--validate checks the arguments with the tool's zod schema: exit 2 with opencode's message", async () => {
    const result = await run(["greet", "--dir", basic, "--validate", "--args", '{"name":5}'])
    expect(result.exitCode).toBe(2)
    const json = result.json()
    expect(json.status).toBe("error")
    expect(json.output).toMatch(/^The greet tool was called with invalid arguments: name: /)
    expect(jsonError(result).code).toBe("ARGS_INVALID")
  })

  test("without --validate the tool gets the arguments as they are, like opencode 1.18", async () => {
    const result = await run(["greet", "--dir", basic, "--args", '{"name":5}'])
    expect(result.exitCode).toBe(0)
    expect(result.json().output).toBe("Hello, 5!")
  })

  test("a built-in tool name exits 1: tool-tester runs custom tools only", async () => {
    const result = await run(["bash", "--dir", basic])
    expect(result.exitCode).toBe(1)
    expect(jsonError(result).code).toBe("TOOL_NOT_FOUND")
  })

  test("the human report marks the model's view and shows the tool's console output apart", async () => {
    const result = await runCli(["run", "greet", "name=Ada", "--no-global"], { cwd: basic })
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toContain("── output: what the model reads")
    expect(result.stdout).toContain("\nHello, Ada!\n── end of output")
    expect(result.stdout).toContain("── tool console: printed by the tool, not sent to the model")
    expect(result.stdout).toContain("stdout | greeting Ada")
  })

  test("a misspelt key=value name runs as opencode would run it, with warnings naming the argument meant", async () => {
    const result = await runCli(["run", "greet", "nmae=Ada", "--no-global"], { cwd: basic })
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toContain("\nHello, undefined!\n")
    expect(result.stderr).toContain(
      "⚠ warning nmae=: greet has no argument nmae (its arguments: name, times, loud, tags), so opencode passes it to the tool as an extra key; did you mean name? [UNKNOWN_ARGUMENT]",
    )
    expect(result.stderr).toContain("greet's schema requires name, and no name=VALUE pair gives it")
    // --validate refuses the call with zod's words: no warning says it again.
    const validated = await runCli(["run", "greet", "nmae=Ada", "--no-global", "--validate"], { cwd: basic })
    expect(validated.exitCode).toBe(2)
    expect(validated.stderr).not.toContain("_ARGUMENT]")
    // --json carries them too, for a script that reads only stdout.
    const json = await run(["greet", "nmae=Ada", "--dir", basic])
    expect((json.json() as RunJson & { warnings?: unknown[] }).warnings).toEqual([
      { code: "UNKNOWN_ARGUMENT", message: expect.stringContaining("did you mean name?") },
      { code: "MISSING_ARGUMENT", message: expect.stringContaining("greet's schema requires name") },
    ])
  })

  test.each(["bun", "node"])(
    "a throwing event hook is shown as a hook error; the call still completes (%s engine)",
    async (engine) => {
      const directory = useTmpDir()
      writeFiles(directory, {
        ".opencode/plugins/events.ts": `export const Breaks = async () => ({
  event: async () => { throw new Error("event boom") },
  tool: { calm: { description: "", args: {}, execute: async () => "fine" } },
})
`,
      })
      const human = await runCli(["run", "calm", "--no-global", "--engine", engine], { cwd: directory })
      expect(human.exitCode).toBe(0)
      expect(human.stdout).toMatch(
        /hook error +\.opencode\/plugins\/events\.ts: the event hook threw on message\.part\.updated \(pending\): event boom/,
      )
      const json = await run(["calm", "--engine", engine], { cwd: directory })
      expect(json.exitCode).toBe(0)
      expect(json.json()).toMatchObject({ status: "completed", output: "fine" })
      expect(
        (json.json() as RunJson & { hookErrors: Array<{ message: string }> }).hookErrors.map((error) => error.message),
      ).toEqual(
        ["pending", "running", "completed"].map((status) => `threw on message.part.updated (${status}): event boom`),
      )
    },
  )

  test("--max-lines truncates like opencode and saves the full output under --data-dir", async () => {
    const data = useTmpDir()
    const result = await run(["many_lines", "--dir", outcomes, "count=10", "--max-lines", "3", "--data-dir", data])
    expect(result.exitCode).toBe(0)
    const json = result.json()
    expect(json.truncated).toBe(true)
    expect(json.output).toMatch(/^line 1\nline 2\nline 3\n\n\.\.\.7 lines truncated\.\.\./)
    expect(json.outputPath).toBe(path.join(data, "tool-output", path.basename(json.outputPath!)))
    expect(existsSync(json.outputPath!)).toBe(true)
    expect(readFileSync(json.outputPath!, "utf8").split("\n")).toHaveLength(10)
    expect(json.metadata).toMatchObject({ truncated: true, outputPath: json.outputPath })
  })

  test("--max-bytes truncates by bytes", async () => {
    const result = await run([
      "many_lines",
      "--dir",
      outcomes,
      "count=10",
      "--max-bytes",
      "20",
      "--data-dir",
      useTmpDir(),
    ])
    // 10 lines are 70 bytes; "line 1\nline 2\nline 3" is exactly the 20 allowed.
    expect(result.json().output).toMatch(/^line 1\nline 2\nline 3\n\n\.\.\.50 bytes truncated\.\.\./)
  })

  test("--deny task switches the truncation hint, as opencode does", async () => {
    const common = ["many_lines", "--dir", outcomes, "count=10", "--max-lines", "3", "--data-dir", useTmpDir()]
    const withTask = await run(common)
    expect(withTask.json().output).toContain("Use the Task tool to have explore agent process this file")
    const denied = await run([...common, "--deny", "task"])
    expect(denied.json().output).toContain("Use Grep to search the full content or Read with offset/limit")
  })

  test("the config's tool_output limits apply unless a flag overrides them", async () => {
    const result = await run(["lines", "--dir", fixture("cli-permissions"), "--data-dir", useTmpDir()])
    expect(result.json().output).toMatch(/^line 1\n(.*\n){4}\n\.\.\.5 lines truncated\.\.\./)
    // task is denied in that config, so the other hint.
    expect(result.json().output).toContain("Use Grep to search")
  })

  test.each(["bun", "node"])(
    "a tool_output limit opencode refuses fails before the tool runs: CONFIG_INVALID, exit 3 (%s engine)",
    async (engine) => {
      const directory = fixture("hostile/tool-output-string")
      const result = await run(["lines", "--dir", directory, "--engine", engine])
      expect(result.exitCode).toBe(3)
      expect(result.stdout).toBe("")
      expect(jsonError(result)).toEqual({
        code: "CONFIG_INVALID",
        message: `${directory}/opencode.json: tool_output.max_lines is "2", but opencode requires a whole number greater than 0; opencode refuses to start with it: set a positive whole number, or remove the key for the default (2000)`,
      })
    },
  )

  test("--deny makes ctx.ask() reject with opencode's message", async () => {
    const allowed = await run(["asks", "--dir", outcomes, "permission=probe"])
    expect(allowed.exitCode).toBe(0)
    expect(allowed.json().asks).toMatchObject([{ permission: "probe", decision: "allow" }])
    const denied = await run(["asks", "--dir", outcomes, "permission=probe", "--deny", "probe"])
    expect(denied.exitCode).toBe(4)
    expect(denied.json().output).toMatch(
      /^The user has specified a rule which prevents you from using this specific tool call/,
    )
  })

  test("--provider and --model change what the tool sees in ctx.extra.model", async () => {
    const result = await run([
      "asks",
      "--dir",
      outcomes,
      "permission=x",
      "--provider",
      "@ai-sdk/google",
      "--model",
      "gemini-2.5-pro",
    ])
    expect(result.json().output).toBe("allowed x; model @ai-sdk/google gemini-2.5-pro")
  })

  test("--provider and --model change the tool list in the invalid tool's text", async () => {
    const result = await run(["nope", "--dir", basic, "--model", "gpt-5"])
    expect(result.json().output).toContain("apply_patch")
    expect(result.json().output).not.toContain(" edit,")
  })

  test("exits 3 when another tool file fails to load, with the result still on stdout", async () => {
    const result = await run(["fine", "--dir", fixture("cli-load-error")])
    expect(result.exitCode).toBe(3)
    expect(result.json()).toMatchObject({ status: "completed", output: "fine" })
    expect(jsonError(result).code).toBe("IMPORT_FAILED")
    // Without --json, the file's line is said once, with the other findings.
    const human = await runCli(["run", "fine", "--dir", fixture("cli-load-error")])
    expect(human.exitCode).toBe(3)
    const failed = human.stderr.split("\n").filter((line) => line.includes("failed to import"))
    expect(failed).toHaveLength(1)
    expect(failed[0]).toMatch(/^✖ error {3}.*\[IMPORT_FAILED\]$/)
  })

  test("exits 3 when another tool's schema would break opencode's tool list", async () => {
    const result = await run(["fine", "--dir", fixture("cli-broken-schema")])
    expect(result.exitCode).toBe(3)
    expect(jsonError(result).code).toBe("SCHEMA_UNREPRESENTABLE")
  })
  test("loads a TypeScript tool as opencode does: paths without extension, its own import.meta, import() at run time", async () => {
    const directory = fixture("cli-module-loading")
    const result = await run(["where", "--dir", directory])
    expect(result.exitCode).toBe(0)
    expect(result.json().output).toBe("label.ts where.ts true true late.ts")
    // The tool file is read, never written to.
    expect(readFileSync(path.join(directory, ".opencode", "tools", "where.ts"), "utf8")).toContain(
      "import.meta as ImportMeta",
    )
  })
  test("a temporary folder it cannot write to fails the load with what to do, and writes nothing", async () => {
    const notAFolder = path.join(useTmpDir(), "file")
    writeFileSync(notAFolder, "")
    // The node engine's loader writes prepared copies of the tool files; Bun imports them as they are.
    const result = await run(["where", "--dir", fixture("cli-module-loading"), "--engine", "node"], {
      env: { TMPDIR: notAFolder },
    })
    expect(result.exitCode).toBe(3)
    const error = jsonError(result)
    expect(error.code).toBe("IMPORT_FAILED")
    expect(error.message).toContain(`cannot write its prepared copy to ${notAFolder}/`)
    expect(error.message).toContain("(ENOTDIR): make the temporary folder writable, or point TMPDIR to one that is")
    expect(readFileSync(notAFolder, "utf8")).toBe("")
  })
})

// Every isolation promise holds under both engines: the bun engine's process and the node
// engine's worker thread.
describe.each(["bun", "node"])(
  "tool-tester run isolates the tool under the %s engine",
  { timeout: 60_000 },
  (engine) => {
    const engineFlag = ["--engine", engine]
    test("a tool that throws exits 4; the model reads the message", async () => {
      const result = await run([...engineFlag, "throws", "--dir", outcomes])
      expect(result.exitCode).toBe(4)
      expect(result.json()).toMatchObject({ status: "error", output: "boom from tool", error: { code: "TOOL_THREW" } })
      expect(jsonError(result).code).toBe("TOOL_THREW")
    })

    test("a tool that returns something opencode cannot send exits 4", async () => {
      const result = await run([...engineFlag, "bad_result", "--dir", outcomes])
      expect(result.exitCode).toBe(4)
      expect(result.json()).toMatchObject({
        output: "undefined is not an object (evaluating 'mo.output')",
        error: { code: "TOOL_BAD_RESULT" },
      })
    })

    test("a tool that calls process.exit exits 4 and the report still comes, with what it printed and the arguments it was sent", async () => {
      const result = await run([...engineFlag, "exits", "--dir", outcomes, "why=testing"])
      expect(result.exitCode).toBe(4)
      const json = result.json()
      expect(json).toMatchObject({ name: "exits", id: "exits", status: "error", error: { code: "TOOL_EXITED" } })
      expect(json.args).toEqual({ why: "testing" })
      expect(json.output).toContain("process.exit(3)")
      expect(json.console.stdout).toBe("about to exit\n")
    })

    test("an error thrown from a timer inside the tool is listed; the call passes, as in opencode", async () => {
      const result = await run([...engineFlag, "escapes", "--dir", outcomes, "--timeout", "10000"])
      expect(result.exitCode).toBe(0)
      const json = result.json()
      expect(json).toMatchObject({ status: "completed", output: "returned after the escape" })
      expect(json.escapedErrors).toEqual([{ kind: "uncaughtException", message: "Error: escaped from a timer" }])
      expect(json.console.stderr).toContain("escaped from a timer")
    })

    test("--timeout fires the tool's abort signal first: exit 5, and what it printed on abort is kept", async () => {
      const result = await run([...engineFlag, "waits_for_abort", "--dir", outcomes, "--timeout", "300"])
      expect(result.exitCode).toBe(5)
      const json = result.json()
      expect(json).toMatchObject({ status: "error", error: { code: "TOOL_TIMEOUT" } })
      expect(json.console.stderr).toBe("abort signal received\n")
      expect(jsonError(result).code).toBe("TOOL_TIMEOUT")
    })

    test("a tool in a busy loop is stopped after the timeout and grace period: exit 5, with the arguments it was sent", async () => {
      const started = performance.now()
      const result = await run([
        ...engineFlag,
        "busy_loop",
        "--dir",
        outcomes,
        "--timeout",
        "300",
        "--args",
        '{"n":[1,2]}',
      ])
      expect(result.exitCode).toBe(5)
      expect(result.json()).toMatchObject({ name: "busy_loop", id: "busy_loop", error: { code: "TOOL_TIMEOUT" } })
      expect(result.json().args).toEqual({ n: [1, 2] })
      expect(performance.now() - started).toBeLessThan(20_000)
    })

    test("the saved full output is byte for byte Buffer.from(output), lone surrogates at the write boundary too", async () => {
      const data = useTmpDir()
      const directory = fixture("hostile/surrogate-at-write-boundary")
      const result = await run([...engineFlag, "surrogate_at_boundary", "--dir", directory, "--data-dir", data])
      expect(result.exitCode).toBe(0)
      const json = result.json()
      expect(json.truncated).toBe(true)
      const expected = Buffer.from(`${"a".repeat(2 ** 20 - 2)}\ud83d\ude00\udc00 tail`)
      expect(readFileSync(json.outputPath!).equals(expected)).toBe(true)
    })

    test("--data-dir naming a file is refused before the tool is reached: one USAGE line, exit 1", async () => {
      const file = path.join(useTmpDir(), "not-a-folder")
      writeFileSync(file, "")
      for (const dataDir of [file, path.join(file, "below")]) {
        const result = await run([...engineFlag, "many_lines", "--dir", outcomes, "--data-dir", dataDir])
        expect(result.exitCode).toBe(1)
        expect(result.stdout).toBe("")
        expect(jsonError(result)).toEqual({
          code: "USAGE",
          message: `--data-dir ${dataDir}: ${file} is a file, not a folder; pass a folder you can write to (it is created if missing), or leave --data-dir out for a temporary one`,
        })
      }
      const human = await runCli(["run", ...engineFlag, "many_lines", "--dir", outcomes, "--data-dir", file])
      expect(human.exitCode).toBe(1)
      expect(human.stdout).toBe("")
      expect(human.stderr).toBe(
        `✖ --data-dir ${file}: ${file} is a file, not a folder; pass a folder you can write to (it is created if missing), or leave --data-dir out for a temporary one [USAGE]\n`,
      )
    })

    test("an empty --data-dir is refused, not taken as the working folder", async () => {
      const result = await run([...engineFlag, "many_lines", "--dir", outcomes, "--data-dir", ""])
      expect(result.exitCode).toBe(1)
      expect(result.stdout).toBe("")
      expect(jsonError(result)).toEqual({
        code: "USAGE",
        message: "--data-dir is empty: give it a value, or leave it out (see npx @opencode-ai/tool-tester run --help)",
      })
    })

    test("a data folder whose tool-output is a file is refused before the tool is reached", async () => {
      const data = useTmpDir()
      writeFileSync(path.join(data, "tool-output"), "")
      const result = await run([...engineFlag, "many_lines", "--dir", outcomes, "--data-dir", data])
      expect(result.exitCode).toBe(1)
      expect(result.stdout).toBe("")
      expect(jsonError(result)).toMatchObject({
        code: "USAGE",
        message: expect.stringContaining(`${data}/tool-output is a file, not a folder`),
      })
    })

    test("a data folder that cannot be written when the output is saved is one USAGE line, not a stack", async () => {
      const directory = fixture("hostile/blocks-its-output-folder")
      const argsFor = (data: string) => [
        "blocks_output_folder",
        "--dir",
        directory,
        "--data-dir",
        data,
        `path=${data}/tool-output`,
      ]
      const data = path.join(useTmpDir(), "data")
      const result = await run([...engineFlag, ...argsFor(data)])
      expect(result.exitCode).toBe(1)
      const error = jsonError(result)
      expect(error.code).toBe("USAGE")
      expect(error.message).toMatch(
        new RegExp(
          `^cannot save the full output of a truncated call in ${data}/tool-output \\(.*EEXIST.*\\): use a data folder you can write to \\(run --data-dir, or the dataDirectory option\\)$`,
        ),
      )
      const human = await runCli(["run", ...engineFlag, ...argsFor(path.join(useTmpDir(), "data")), "--no-global"])
      expect(human.exitCode).toBe(1)
      expect(human.stderr.trimEnd().split("\n")).toHaveLength(1)
      expect(human.stderr).toMatch(/^✖ cannot save the full output of a truncated call in .* \[USAGE\]\n$/)
    })

    test("a tool that prints 64 MiB cannot break the report: 64 KiB kept, the rest counted", async () => {
      const result = await run([...engineFlag, "prints_a_lot", "--dir", outcomes])
      expect(result.exitCode).toBe(0)
      const json = result.json()
      expect(json.output).toBe("printed 64 MiB")
      expect(json.console.stdout).toHaveLength(64 * 1024)
      expect(json.console.droppedBytes.stdout).toBe(64 * 1024 * 1024 - 64 * 1024)
    })
  },
)

// Tools choose the text of the human report: what a terminal would act on is shown escaped there,
// and left as it is in --json (the exact text the model reads).
describe.each(["bun", "node"])("tool-tester run shows terminal control characters escaped (%s engine)", (engine) => {
  const directory = fixture("hostile/terminal-escapes")
  const hostile =
    "\x1b[?1049h\x1b[?25l\x1b[31mred\x1b]0;pwned\x07 bell\x07 back\bspace over\rwrite \u009b2J" +
    " \u202eevil\u202c \u2066isolate\u2069 \x00nul \x7fdel"
  const shown = String.raw`\u001b[?1049h\u001b[?25l\u001b[31mred\u001b]0;pwned\u0007 bell\u0007 back\bspace over\rwrite \u009b2J \u202eevil\u202c \u2066isolate\u2069 \u0000nul \u007fdel`

  test("in the output, title, metadata and console of the human report; tabs and newlines kept", async () => {
    const result = await runCli(["run", "terminal_escapes", "--dir", directory, "--no-global", "--engine", engine])
    expect(result.exitCode).toBe(0)
    expect(rawControlCharacters(result.stdout + result.stderr)).toEqual([])
    expect(result.stdout).toContain(`title       title${shown}\n`)
    expect(result.stdout).toContain(`metadata    {"hostile":"${shown}","truncated":false}\n`)
    expect(result.stdout).toContain(`\nfirst${shown}\n\tsecond line\n── end of output`)
    expect(result.stdout).toContain(`stdout | console${shown}\n`)
    expect(result.stdout).toContain(`stderr | stderr${shown}`)
  })

  test("in the failure line and the error of a tool that throws", async () => {
    const args = ["run", "terminal_escapes", "fail=true", "--dir", directory, "--no-global", "--engine", engine]
    const result = await runCli(args)
    expect(result.exitCode).toBe(4)
    expect(rawControlCharacters(result.stdout + result.stderr)).toEqual([])
    expect(result.stderr).toMatch(/^✖ .* \[TOOL_THREW\]\n$/)
    expect(result.stderr).toContain(`thrown${shown}`)
    expect(result.stdout).toContain(`\nthrown${shown}\n── end of output`)
  })

  test("--json keeps the exact text the model reads", async () => {
    const result = await run(["terminal_escapes", "--dir", directory, "--engine", engine])
    expect(result.exitCode).toBe(0)
    const json = result.json()
    expect(json.output).toBe(`first${hostile}\n\tsecond line`)
    expect(json.title).toBe(`title${hostile}`)
    expect(json.console.stdout).toBe(`console${hostile}\n`)
  })
})

describe("tool-tester run and the engine", { timeout: 60_000 }, () => {
  test("bun engine: a child process the tool started and did not wait for is gone once run exits", async () => {
    const directory = fixture("hostile/leaves-a-child")
    const result = await run(["leaves_a_child", "--dir", directory, "--engine", "bun"])
    expect(result.exitCode).toBe(0)
    const pid = Number(result.json().output)
    expect(pid).toBeGreaterThan(0)
    await expect.poll(() => isRunning(pid), { timeout: 10_000 }).toBe(false)
  })

  test("the docs' Python example returns 5 under the bun engine; under node, run says why it cannot", async () => {
    const directory = useTmpDir()
    const example = path.join(packageRoot, "probes", "bun-apis", ".opencode", "tools")
    writeFiles(directory, {
      ".opencode/tools/python-add.ts": readFileSync(path.join(example, "python-add.ts"), "utf8"),
      ".opencode/tools/add.py": readFileSync(path.join(example, "add.py"), "utf8"),
      ".git/HEAD": "ref: refs/heads/main\n",
      // The tool imports @opencode-ai/plugin, from this package's node_modules as under .opencode/.
    })
    symlinkSync(path.join(packageRoot, "node_modules"), path.join(directory, "node_modules"), "dir")
    const bun = await runCli(["run", "python-add", "a=2", "b=3", "--dir", directory, "--no-global", "--engine", "bun"])
    expect(bun.exitCode).toBe(0)
    expect(bun.stdout).toContain("\n5\n── end of output")
    expect(bun.stdout).toMatch(/engine {6}bun 1\.3\.14 \(/)
    const node = await runCli([
      "run",
      "python-add",
      "a=2",
      "b=3",
      "--dir",
      directory,
      "--no-global",
      "--engine",
      "node",
    ])
    expect(node.exitCode).toBe(4)
    expect(node.stdout).toContain("Bun is not defined")
    expect(node.stderr).toContain("this tool uses Bun's API, which opencode has and the node engine does not")
  })

  test("an unknown --engine and a missing --engine-binary are one-line usage errors", async () => {
    const unknown = await run(["greet", "--dir", basic, "--engine", "deno"])
    expect(unknown.exitCode).toBe(1)
    expect(jsonError(unknown)).toMatchObject({ code: "USAGE", message: expect.stringContaining('"deno"') })
    const missing = await run(["greet", "--dir", basic, "--engine-binary", "/nope/opencode"])
    expect(missing.exitCode).toBe(1)
    expect(jsonError(missing)).toMatchObject({ code: "ENGINE_NOT_FOUND" })
    // A name with no folder in it is a program on PATH, as a shell finds it, not a file in the working folder.
    const notOnPath = await run(["greet", "--dir", basic, "--engine-binary", "no-such-bun-here"])
    expect(notOnPath.exitCode).toBe(1)
    expect(jsonError(notOnPath)).toEqual({
      code: "ENGINE_NOT_FOUND",
      message:
        "--engine-binary names no-such-bun-here, but no program named no-such-bun-here is on PATH, where a name without a folder is looked up: give the name of an opencode or bun on PATH, or the path of one",
    })
    const notBun = await run(["greet", "--dir", basic, "--engine-binary", "/bin/false"])
    expect(notBun.exitCode).toBe(1)
    expect(jsonError(notBun)).toMatchObject({ code: "ENGINE_FAILED", message: expect.stringContaining("/bin/false") })
  })
})

describe("tool-tester run out of memory", { timeout: 120_000 }, () => {
  test("node engine: a tool that fills the heap is TOOL_EXITED saying it ran out of memory", async () => {
    const directory = fixture("out-of-memory")
    // The engine's process inherits NODE_OPTIONS, so its heap fills in a second instead of gigabytes.
    const child = spawnSync(
      process.execPath,
      [path.join(packageRoot, "bin.js"), "run", "oom", "--dir", directory, "--no-global", "--json", "--engine", "node"],
      {
        encoding: "utf8",
        env: { ...process.env, ...isolatedHome(useTmpDir()), NO_COLOR: "1", NODE_OPTIONS: "--max-old-space-size=96" },
      },
    )
    expect(child.status).toBe(4)
    const json = JSON.parse(child.stdout) as RunJson
    expect(json.error).toMatchObject({ code: "TOOL_EXITED", message: expect.stringContaining("ran out of memory") })
  })

  // The tool's stderr is the engine's: out of memory is said from how the engine ended (an abort,
  // after the runtime's last words), never from what was printed alone.
  const endings = [
    {
      tool: "says_out_of_memory",
      what: "a tool that prints the out-of-memory words and exits is a process.exit, not out of memory",
      message:
        "the tool ended its process with process.exit(0); under opencode that stops opencode itself: throw an Error instead",
    },
    {
      tool: "aborts",
      what: "process.abort() is reported as SIGABRT, without blaming memory",
      message: "the engine was killed by SIGABRT while the tool ran; in opencode it would take opencode down with it",
    },
  ]
  describe.each(["bun", "node"])("%s engine", (engine) => {
    for (const { tool, what, message } of endings)
      test(what, async () => {
        const result = await run([tool, "--dir", fixture("out-of-memory"), "--engine", engine])
        expect(result.exitCode).toBe(4)
        expect(result.json().error).toEqual({ code: "TOOL_EXITED", message })
        if (tool === "says_out_of_memory")
          expect(result.json().console.stderr).toContain("JavaScript heap out of memory")
      })
  })
})
