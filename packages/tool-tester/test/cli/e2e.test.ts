import { chmodSync } from "node:fs"
import path from "node:path"
import { describe, expect, test } from "vitest"
import { escapeRegExp } from "../../src/_escape-regexp.ts"
import { fixture, jsonError, opencode, runCli, useTmpDir, writeFiles } from "../helpers.ts"

/** Tests that run the real opencode skip, saying why, where this platform has none installed. */
const withOpencode = test.skipIf(opencode.binary === undefined)
const needsOpencode = opencode.binary === undefined ? ` (skipped: ${opencode.reason})` : ""

const basic = fixture("cli-basic")

describe("tool-tester e2e", { timeout: 120_000 }, () => {
  test("without --script exits 1", async () => {
    const result = await runCli(["e2e", "--dir", basic, "--json"])
    expect(result.exitCode).toBe(1)
    expect(jsonError(result)).toMatchObject({ code: "USAGE", message: expect.stringContaining("--script") })
  })

  test("a tool that ends opencode with process.exit(0) mid-call is TOOL_EXITED, exit 4, not a clean run", async () => {
    const directory = fixture("hostile/exits-zero")
    const result = await runCli(["e2e", "--dir", directory, "--script", "e2e-script.json", "--json"], {
      cwd: directory,
    })
    expect(result.exitCode, result.stderr).toBe(4)
    expect(jsonError(result)).toMatchObject({ code: "TOOL_EXITED", message: expect.stringContaining("exits_zero") })
    const run = JSON.parse(result.stdout) as { exitCode: number; errors: Array<{ source: string }> }
    expect(run.exitCode).toBe(0)
    expect(run.errors.map((error) => error.source)).toContain("exit")
  })

  withOpencode(
    `opencode's own session failing mid-call is OPENCODE_FAILED, exit 3, quoting its error, not process.exit${needsOpencode}`,
    async () => {
      // Observed on 1.18.34 (test/e2e/unfinished-calls.test.ts says how): metadata holding a function
      // ends the run, exit code 1, with the error event "The object can not be cloned.".
      const directory = useTmpDir()
      writeFiles(directory, {
        ".opencode/tools/clone_fn.ts":
          'export default { description: "metadata holding a function", args: {}, async execute() { return { output: "x", metadata: { f: () => 1 } } } }\n',
        "e2e-script.json": JSON.stringify({ turns: [{ calls: [{ tool: "clone_fn", args: {} }] }, { text: "done" }] }),
      })
      const result = await runCli(["e2e", "--dir", directory, "--script", "e2e-script.json", "--json"], {
        cwd: directory,
      })
      expect(result.exitCode, result.stderr).toBe(3)
      const failure = jsonError(result)
      expect(failure.code).toBe("OPENCODE_FAILED")
      expect(failure.message).toContain(
        'while clone_fn was running, before the model got its result, because its own session failed: "The object can not be cloned."',
      )
      expect(failure.message).not.toContain("process.exit")
      const run = JSON.parse(result.stdout) as { exitCode: number; errors: Array<{ source: string; message: string }> }
      expect(run.exitCode).toBe(1)
      expect(run.errors).toContainEqual({ source: "event", message: "The object can not be cloned." })
    },
  )

  test("a tool that throws from a timer after returning: the model got its result, then opencode exited 1 (exit 3)", async () => {
    // Observed on 1.18.34 (docs/opencode-contract.md#escaped-errors): opencode prints the escaped
    // error and goes on, the call completes, and `opencode run` exits 1 at the end (tool-tester run
    // lists the same error in escapedErrors and passes the call).
    const directory = fixture("hostile/throws-after-return")
    const result = await runCli(["e2e", "--dir", directory, "--script", "e2e-script.json", "--json"], {
      cwd: directory,
    })
    expect(result.exitCode, result.stderr).toBe(3)
    // The error Bun printed and the tool's file, not the stack frame printed last.
    expect(jsonError(result)).toEqual({
      code: "OPENCODE_FAILED",
      message:
        "opencode ended with an error: exit code 1 after an error escaped a tool (.opencode/tools/throws_after_return.ts:7:52) outside the promise execute returns: error: thrown just after returning; opencode printed it on stderr and went on with the call's result, and `opencode run` exits 1 after a throw from a timer or an event handler: catch it inside the callback",
    })
    const run = JSON.parse(result.stdout) as {
      exitCode: number
      calls: Array<{ status: string; result: string }>
      errors: Array<{ source: string; message: string }>
    }
    expect(run.exitCode).toBe(1)
    expect(run.calls).toMatchObject([{ status: "completed", result: "returned" }])
    expect(run.errors.at(-1)?.message).toMatch(/^\s+at .*throws_after_return\.ts:7:52\)$/)
  })

  test("a .json file given where --script goes: exit 1, saying to give it with --script", async () => {
    const result = await runCli(["e2e", "e2e-script.json", "--json"], { cwd: basic })
    expect(result.exitCode).toBe(1)
    expect(jsonError(result)).toEqual({
      code: "USAGE",
      message: expect.stringMatching(
        /^unexpected argument e2e-script\.json; to play it as the e2e script, give it with --script e2e-script\.json \(see .* e2e --help\)$/,
      ),
    })
    // Beside a --script, another word is only unexpected.
    const both = await runCli(["e2e", "--script", "e2e-script.json", "other.json", "--json"], { cwd: basic })
    expect(both.exitCode).toBe(1)
    expect(jsonError(both).message).not.toContain("give it with --script")
  })

  test("a malformed script exits 1 with SCRIPT_INVALID naming the file and the entry", async () => {
    const folder = useTmpDir()
    writeFiles(folder, {
      "script.json": JSON.stringify({ turns: [{ calls: [{ args: {} }] }] }),
      "broken.json": "{turns:",
    })
    const result = await runCli(["e2e", "--dir", basic, "--script", `${folder}/script.json`, "--json"])
    expect(result.exitCode).toBe(1)
    expect(jsonError(result)).toEqual({
      code: "SCRIPT_INVALID",
      message: `Invalid e2e script ${path.join(folder, "script.json")}: turns[0].calls[0].tool must be a non-empty string.`,
    })
    const broken = await runCli(["e2e", "--dir", basic, "--script", `${folder}/broken.json`, "--json"])
    expect(broken.exitCode).toBe(1)
    expect(jsonError(broken)).toMatchObject({
      code: "SCRIPT_INVALID",
      message: expect.stringMatching(
        new RegExp(`^Invalid e2e script ${escapeRegExp(path.join(folder, "broken.json"))}: not valid JSON \\(`),
      ),
    })
  })

  test("a script file that does not exist, or is a folder: exit 1, PATH_NOT_FOUND saying which", async () => {
    const folder = useTmpDir()
    const missing = await runCli(["e2e", "--dir", basic, "--script", `${folder}/nothere.json`, "--json"])
    expect(missing.exitCode).toBe(1)
    expect(jsonError(missing)).toEqual({
      code: "PATH_NOT_FOUND",
      message: `${folder}/nothere.json does not exist; pass the script file with --script`,
    })
    const directory = await runCli(["e2e", "--dir", basic, "--script", folder, "--json"])
    expect(directory.exitCode).toBe(1)
    expect(jsonError(directory)).toMatchObject({
      code: "PATH_NOT_FOUND",
      message: expect.stringContaining("a directory"),
    })
  })

  test("--config that is not a JSON object exits 1", async () => {
    const result = await runCli(["e2e", "--dir", basic, "--script", "e2e-script.json", "--config", "[1]", "--json"], {
      cwd: basic,
    })
    expect(result.exitCode).toBe(1)
    expect(jsonError(result).message).toContain("--config")
  })

  test("--config with a setting opencode refuses exits 3 before opencode starts, naming it", async () => {
    const config = '{"attachment":{"image":{"max_width":0}}}'
    const result = await runCli(["e2e", "--script", "e2e-script.json", "--config", config, "--json"], { cwd: basic })
    expect(result.exitCode).toBe(3)
    expect(jsonError(result)).toEqual({
      code: "CONFIG_INVALID",
      message:
        "--config: attachment.image.max_width is 0, but opencode requires a whole number greater than 0; opencode refuses to start with it: set a positive whole number, or remove the key for the default (2000)",
    })
  })

  withOpencode(
    `a setting opencode refuses that tool-tester does not check: OPENCODE_FAILED quotes opencode and says to fix the config${needsOpencode}`,
    async () => {
      // Observed on 1.18.34: "Configuration is invalid at OPENCODE_CONFIG_CONTENT", then the setting.
      const result = await runCli(["e2e", "--script", "e2e-script.json", "--config", '{"share":5}', "--json"], {
        cwd: basic,
      })
      expect(result.exitCode, result.stderr).toBe(3)
      expect(jsonError(result)).toMatchObject({
        code: "OPENCODE_FAILED",
        message: expect.stringMatching(
          /^opencode ended before talking to the model \(.*got 5 share\)\. opencode refused its config: fix that setting in the project's opencode\.json or in the config given$/,
        ),
      })
    },
  )

  withOpencode(
    `a project opencode.json that is not JSON: OPENCODE_FAILED names the file as the user's and its first error, not the binary${needsOpencode}`,
    async () => {
      // Observed on 1.18.34: "Error: Config file at <copy>/opencode.json is not valid JSON(C): ", the
      // input, "--- Errors ---", one line per error, and last "--- End ---", which the message quoted.
      const folder = useTmpDir()
      writeFiles(folder, { "opencode.json": "{bad\n", "e2e.json": '[{"text":"hi"}]' })
      const result = await runCli(["e2e", "--script", "e2e.json", "--json"], { cwd: folder })
      expect(result.exitCode, result.stderr).toBe(3)
      expect(jsonError(result)).toEqual({
        code: "OPENCODE_FAILED",
        message: `opencode ended before talking to the model (Config file at ${path.join(folder, "opencode.json")} is not valid JSON(C): InvalidSymbol at line 1, column 2). opencode could not parse a config file: fix its JSON`,
      })
    },
  )

  withOpencode(
    `a tool file opencode cannot build: OPENCODE_FAILED names the file as the user's and the command that shows why, not opencode's stack${needsOpencode}`,
    async () => {
      // Observed on 1.18.34: one log line, error="AggregateError: 2 errors building \"<copy>/...\"" and a
      // cause repeating it with opencode's stack (1.6 kB), which the message quoted whole.
      const folder = useTmpDir()
      writeFiles(folder, { ".opencode/tools/broken.ts": "export default {{{\n", "e2e.json": '[{"text":"hi"}]' })
      const result = await runCli(["e2e", "--script", "e2e.json", "--dir", ".", "--json"], { cwd: folder })
      expect(result.exitCode, result.stderr).toBe(3)
      const failure = jsonError(result)
      expect(failure.code).toBe("OPENCODE_FAILED")
      const file = escapeRegExp(JSON.stringify(path.join(folder, ".opencode", "tools", "broken.ts")))
      expect(failure.message).toMatch(
        new RegExp(
          `^opencode ended with an error: AggregateError: \\d+ errors? building ${file}: a file did not build; \\S.* doctor --dir \\. shows why$`,
        ),
      )
    },
  )

  test("an --opencode program that ends at once without asking the model (exit 0) is OPENCODE_FAILED, exit 3, not a pass", async () => {
    const folder = useTmpDir()
    writeFiles(folder, { "not-opencode": "#!/bin/sh\nexit 0\n" })
    chmodSync(path.join(folder, "not-opencode"), 0o755)
    const result = await runCli(
      ["e2e", "--script", "e2e-script.json", "--opencode", path.join(folder, "not-opencode"), "--json"],
      { cwd: basic },
    )
    expect(result.exitCode, result.stderr).toBe(3)
    expect(jsonError(result)).toMatchObject({
      code: "OPENCODE_FAILED",
      message: `${path.join(folder, "not-opencode")} ended before talking to the model (exit code 0): it is not opencode (its --help lists no \`opencode run\`). Pass opencode's binary with --opencode, or leave --opencode out to use an installed one.`,
    })
    // The transcript printed before the failure does not call it opencode.
    expect(JSON.parse(result.stdout)).toMatchObject({ opencodeVersion: null, notOpencode: expect.any(String) })
  })

  test("an --opencode path that is not opencode exits 1", async () => {
    const result = await runCli(["e2e", "--script", "e2e-script.json", "--opencode", "./nowhere/opencode", "--json"], {
      cwd: basic,
    })
    expect(result.exitCode).toBe(1)
    expect(jsonError(result).code).toBe("OPENCODE_NOT_FOUND")
  })

  test("an --opencode command name is looked up on PATH, not taken as a file in the working folder", async () => {
    const result = await runCli(
      ["e2e", "--script", "e2e-script.json", "--opencode", "no-such-opencode-here", "--json"],
      { cwd: basic },
    )
    expect(result.exitCode).toBe(1)
    expect(jsonError(result)).toEqual({
      code: "OPENCODE_NOT_FOUND",
      message:
        "No program named no-such-opencode-here on PATH. Check the --opencode name, give the binary's path, or drop it to use an installed one.",
    })
  })

  test("--opencode and --opencode-version together exit 1", async () => {
    const result = await runCli(
      ["e2e", "--script", "e2e-script.json", "--opencode", "x", "--opencode-version", "1.18.34", "--json"],
      { cwd: basic },
    )
    expect(result.exitCode).toBe(1)
    expect(jsonError(result).message).toContain("--opencode-version")
  })

  test("a --timeout that is not a positive whole number exits 1", async () => {
    const result = await runCli(["e2e", "--script", "e2e-script.json", "--timeout", "soon", "--json"], { cwd: basic })
    expect(result.exitCode).toBe(1)
    expect(jsonError(result).message).toContain("--timeout")
  })

  withOpencode(
    `runs the script in the real opencode with --plugin, --model, --provider and --config, and prints what it sent and ran${needsOpencode}`,
    async () => {
      const result = await runCli(
        [
          "e2e",
          "--script",
          "e2e-script.json",
          "--plugin",
          "./extra-plugin.ts",
          "--model",
          "gpt-5",
          "--provider",
          "@ai-sdk/openai-compatible",
          "--config",
          '{"permission":{"task":"deny"}}',
          "--timeout",
          "90000",
          "--json",
        ],
        { cwd: basic },
      )
      expect(result.exitCode, result.stderr).toBe(0)
      const run = JSON.parse(result.stdout) as {
        opencode: string
        engine: { name: string; version: string; binary: string }
        model: string
        tools: Array<{ function: { name: string } }>
        calls: Array<{ as_called: { name: string }; result: string; status: string }>
      }
      expect(run.model).toBe("mock/gpt-5")
      // The tools ran in the Bun that this opencode embeds.
      expect(run.engine).toEqual({ name: "bun", version: "1.3.14", binary: run.opencode })
      const offered = run.tools.map((tool) => tool.function.name)
      expect(offered).toEqual(expect.arrayContaining(["apply_patch", "greet", "math_add", "shout"]))
      expect(offered).not.toContain("task")
      expect(run.calls).toMatchObject([{ as_called: { name: "greet" }, result: "Hello, Ada!", status: "completed" }])
    },
  )

  withOpencode(
    `a config denying every tool: the main turn is played, and its call is reported as not run, opencode having offered no tool (exit 6)${needsOpencode}`,
    async () => {
      // Observed on 1.18.34: the main requests offer no tools, like the title request; the call ends
      // in error, the model reading the AI SDK's answer for a tool it was not given.
      const result = await runCli(
        ["e2e", "--script", "e2e-script.json", "--config", '{"permission":{"*":"deny"}}', "--json"],
        { cwd: basic },
      )
      expect(result.exitCode, result.stderr).toBe(6)
      const run = JSON.parse(result.stdout) as {
        tools: unknown
        requests: Array<{ kind: string; body: { model: string; tools?: unknown } }>
        calls: Array<{ as_called: { name: string }; status: string; result: string }>
      }
      expect(run.requests.map((request) => [request.kind, request.body.model, request.body.tools])).toEqual([
        ["title", "mock-model-title", undefined],
        ["main", "mock-model", undefined],
        ["main", "mock-model", undefined],
      ])
      expect(run.tools).toBeNull()
      const unavailable = "Model tried to call unavailable tool 'invalid'. Available tools: ."
      expect(run.calls).toMatchObject([{ as_called: { name: "greet" }, status: "error", result: unavailable }])
      expect(jsonError(result)).toEqual({
        code: "TOOL_REROUTED",
        message: `the call to greet was not run: opencode offered the model no tools (a config that denies every tool, such as {"permission":{"*":"deny"}}, removes them all), so it rerouted the call to the invalid tool, which it did not offer either; the model read: ${unavailable}`,
      })
    },
  )

  withOpencode(
    `offers and runs the tool of a plugin package the project installed and lists by name with options${needsOpencode}`,
    async () => {
      const directory = fixture("e2e-npm-plugin")
      const result = await runCli(["e2e", "--script", "e2e-script.json", "--json"], { cwd: directory })
      expect(result.exitCode, result.stderr).toBe(0)
      const run = JSON.parse(result.stdout) as {
        tools: Array<{ function: { name: string } }>
        calls: Array<{ as_run: { name: string }; result: string; status: string }>
        errors: unknown[]
      }
      expect(run.tools.map((tool) => tool.function.name)).toContain("plugin_options")
      expect(run.calls).toMatchObject([
        { as_run: { name: "plugin_options" }, result: '{"greeting":"hi"}', status: "completed" },
      ])
      expect(run.errors).toEqual([])
    },
  )

  withOpencode(
    `reports a plugin package that is not installed among the errors, not an empty list${needsOpencode}`,
    async () => {
      const directory = fixture("e2e-npm-plugin")
      const result = await runCli(
        ["e2e", "--script", "e2e-script.json", "--plugin", "not-installed-plugin", "--json"],
        { cwd: directory },
      )
      // A plugin opencode could not load fails the run as a load failure does in list and run.
      expect(result.exitCode).toBe(3)
      expect(jsonError(result).code).toBe("PLUGIN_LOAD_FAILED")
      const run = JSON.parse(result.stdout) as { errors: Array<{ source: string; message: string }> }
      expect(run.errors).toContainEqual({
        source: "plugin",
        message: expect.stringContaining(
          "plugin not-installed-plugin (from the e2e config (--plugin, --config)) is not installed",
        ),
      })
    },
  )
})
