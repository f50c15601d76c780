import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, test } from "vitest"
import { fixture, jsonError, packageRoot, runCli, useTmpDir, writeFiles } from "../helpers.ts"
import { MODELLED_OPENCODE_VERSION } from "../../src/opencode/opencode-version.ts"

const basic = fixture("cli-basic")
const version = (JSON.parse(readFileSync(path.join(packageRoot, "package.json"), "utf8")) as { version: string })
  .version

describe("help, version and usage errors", { timeout: 60_000 }, () => {
  test("--help prints the usage of every command and exits 0", async () => {
    const result = await runCli(["--help"])
    expect(result.exitCode).toBe(0)
    for (const command of ["list", "schema", "run", "doctor", "e2e"])
      expect(result.stdout).toContain(`tool-tester ${command}`)
    expect(result.stdout).toContain("Exit codes")
    // Every exit status docs/cli.md lists (eval's 8 among them) is in the summary, which is all --help says of them.
    const docs = readFileSync(path.join(packageRoot, "..", "..", "docs", "cli.md"), "utf8")
    const table = docs.slice(docs.indexOf("## Exit codes"), docs.indexOf("\n## ", docs.indexOf("## Exit codes") + 1))
    const codes = [...table.matchAll(/^\| (\d+) +\|/gm)].map((match) => match[1])
    expect(codes).toContain("8")
    const summary = result.stdout.slice(result.stdout.indexOf("Exit codes:"))
    for (const code of [...codes, "130"]) expect(summary, code).toMatch(new RegExp(`(^|\\s)${code} [a-z]`, "m"))
  })

  test("-h after a command prints that command's help", async () => {
    const result = await runCli(["run", "-h"])
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toMatch(/^Usage: tool-tester run NAME/)
    expect(result.stdout).not.toContain("Commands:")
  })

  test("-v and --version print the package version and the opencode version it models", async () => {
    for (const flag of ["-v", "--version"]) {
      const result = await runCli([flag])
      expect(result.exitCode).toBe(0)
      expect(result.stdout.trim()).toBe(`${version} (models opencode ${MODELLED_OPENCODE_VERSION})`)
    }
  })

  test("-v and --version after a command print the same, as an option every command shares; not after --", async () => {
    for (const argv of [
      ["list", "--version"],
      ["run", "greet", "-v"],
      ["doctor", "--json", "-v"],
    ]) {
      const result = await runCli(argv)
      expect(result.exitCode).toBe(0)
      expect(result.stdout.trim()).toBe(`${version} (models opencode ${MODELLED_OPENCODE_VERSION})`)
    }
    // After --, a word is a tool's name: a call of "-v", rerouted to invalid.
    const named = await runCli(["run", "--dir", basic, "--json", "--", "-v"])
    expect(named.exitCode).toBe(6)
  })

  test("--json after -- is a word for the tool, not an option: the usage error stays a plain line", async () => {
    // run reads the words after -- as key=value pairs, so "--json" there is a bad pair, reported
    // as every failure without --json is.
    const result = await runCli(["run", "greet", "--dir", basic, "--", "--json"])
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toMatch(/^✖ "--json" is not a key=value pair; .*\[USAGE\]\n$/)
    expect(result.stderr).not.toContain('{"error"')
    // Before --, it still asks for JSON.
    const json = await runCli(["run", "greet", "--dir", basic, "--json", "--", "oops"])
    expect(jsonError(json)).toMatchObject({
      code: "USAGE",
      message: expect.stringContaining('"oops" is not a key=value pair'),
    })
  })

  test("a name every object inherits (constructor, __proto__) is no command: a usage error, not INTERNAL", async () => {
    for (const argv of [["constructor"], ["toString", "-v"], ["help", "constructor"], ["__proto__", "--help"]]) {
      const result = await runCli(argv)
      expect(result.exitCode).toBe(1)
      expect(result.stderr).toMatch(/^✖ unknown command "(constructor|toString|__proto__)" .*\[USAGE\]\n$/)
    }
  })

  test("the built bin's --version, answered before the CLI loads (by bin.js, or by the CLI's entry when bin.js could not write it), names the same opencode version", () => {
    for (const entry of ["bin.js", "dist/cli/main.js"]) {
      const stdout = execFileSync(process.execPath, [path.join(packageRoot, entry), "--version"], { encoding: "utf8" })
      expect(stdout.trim(), entry).toBe(`${version} (models opencode ${MODELLED_OPENCODE_VERSION})`)
    }
  })

  test("no command prints the help on stderr and exits 1", async () => {
    const result = await runCli([])
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain("Usage:")
  })

  test("an unknown command exits 1 with a readable message", async () => {
    const result = await runCli(["deploy"])
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain('unknown command "deploy"')
    expect(result.stderr).toContain("commands: list, schema, run, doctor, fuzz, e2e, eval, dev, preflight")
    expect(result.stderr).not.toContain("did you mean")
  })

  test("a mistyped command suggests the closest one", async () => {
    for (const [typed, meant] of [
      ["lst", "list"],
      ["shcema", "schema"],
      ["doctr", "doctor"],
      ["rn", "run"],
    ]) {
      const result = await runCli([typed!, "--json"])
      expect(result.exitCode).toBe(1)
      expect(jsonError(result)).toMatchObject({
        code: "USAGE",
        message: expect.stringContaining(`unknown command "${typed}"; did you mean "${meant}"?`),
      })
    }
  })

  test("a mistyped option suggests the closest option of that command", async () => {
    for (const [command, typed, meant] of [
      ["list", "--no-globl", "--no-global"],
      ["list", "--jsn", "--json"],
      ["schema", "--tol", "--tool"],
      ["doctor", "--plugn", "--plugin"],
      ["run", "--validte", "--validate"],
      ["e2e", "--scrpt", "--script"],
    ]) {
      const name = command === "run" ? ["greet"] : []
      const result = await runCli([command!, ...name, "--dir", basic, typed!])
      expect(result.exitCode, `${command} ${typed}`).toBe(1)
      expect(result.stderr).toContain(
        `unknown option ${typed}; did you mean ${meant}? (see npx @opencode-ai/tool-tester ${command} --help)`,
      )
      // Node's own parser text does not reach the user.
      expect(result.stderr).not.toContain("To specify a positional argument")
    }
  })

  test("an unknown option with no close match names the command's help", async () => {
    const result = await runCli(["list", "--dir", basic, "--frobnicate", "--json"])
    expect(result.exitCode).toBe(1)
    expect(jsonError(result).message).toBe("unknown option --frobnicate (see npx @opencode-ai/tool-tester list --help)")
  })

  test("a tool's argument given to run as an option suggests key=value, and --args for plain text", async () => {
    // A number, a boolean or no value: key=value only, which is read with the tool's schema (`name=5`
    // is the string "5" for a string argument; `{"name":5}` would be a number).
    const cases: Array<[string[], string]> = [
      [["--name", "Ada"], `name=Ada (or --args '{"name":"Ada"}')`],
      [["--name=Ada Lovelace"], `'name=Ada Lovelace' (or --args '{"name":"Ada Lovelace"}')`],
      [["--times", "3"], "times=3 (see"],
      [["--name", "5"], "name=5 (see"],
      [["--times", "-5"], "times=-5 (see"],
      // Text some schema reads as JSON (an array, an object, an exponent, a quoted string): the
      // pair gives the tool that value where the schema says so, --args would give the text.
      [["--tags", '["a b"]'], `'tags=["a b"]' (see`],
      [["--name", '{"a":1}'], `'name={"a":1}' (see`],
      [["--times", "1e3"], "times=1e3 (see"],
      [["--times", "-1e3"], "times=-1e3 (see"],
      [["--name", '"Ada"'], `'name="Ada"' (see`],
      // No value: which one the tool's schema says, read from the project once the usage error is
      // decided: `true` only for a boolean (for a string it would be the text "true").
      [["--loud"], "loud=true (see"],
      [["--loud", "name=Ada"], "loud=true (see"],
      [["--name"], "name=TEXT (see"],
      [["--times"], "times=NUMBER (see"],
    ]
    for (const [flags, suggestion] of cases) {
      const result = await runCli(["run", "greet", "--dir", basic, "--no-global", ...flags])
      expect(result.exitCode, flags.join(" ")).toBe(1)
      expect(result.stdout).toBe("")
      expect(result.stderr).toContain(`${flags[0]!.split("=")[0]} is not an option of run`)
      expect(result.stderr).toContain(`key=value: ${suggestion}`)
      expect(result.stderr).toContain("[USAGE]")
      expect(result.stderr).not.toContain("Unknown option")
    }
  })

  test("an argument the tool does not have, written as an option, lists the tool's arguments; without the tool, the generic hint", async () => {
    const none = await runCli(["run", "greet", "--dir", basic, "--no-global", "--json", "--nope"])
    expect(none.exitCode).toBe(1)
    expect(jsonError(none)).toEqual({
      code: "USAGE",
      message: expect.stringMatching(
        /^--nope is not an option of run, and greet has no argument nope \(its arguments: name, times, loud, tags\); a tool's own arguments are written key=value \(see .* run --help\)$/,
      ),
    })
    // Loading failed (no such tool): the hint that needs no schema.
    const missing = await runCli(["run", "no-such-tool", "--dir", basic, "--no-global", "--loud"])
    expect(missing.exitCode).toBe(1)
    expect(missing.stderr).toContain("key=value: loud=VALUE, such as loud=true for a boolean argument (see")
  })

  test("an option of another command given to run says whose it is (fuzz's --runs), beside the key=value form", async () => {
    const result = await runCli(["run", "greet", "--dir", basic, "--no-global", "--runs", "5"])
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain("--runs is not an option of run (it is an option of fuzz and eval); a tool's own")
    const own = await runCli(["run", "greet", "--dir", basic, "--no-global", "--name", "Ada"])
    expect(own.stderr).toContain("--name is not an option of run; a tool's own")
  })

  test("run with an unknown tool name keeps opencode's reroute (exit 6) and suggests the closest tool", async () => {
    const directory = useTmpDir()
    writeFiles(directory, {
      ".opencode/tools/weather.ts": `export default { description: "The weather in a city", args: {}, async execute() { return "sunny" } }\n`,
    })
    const json = await runCli(["run", "wether", "--dir", directory, "--no-global", "--engine", "node", "--json"])
    expect(json.exitCode).toBe(6)
    expect(JSON.parse(json.stdout)).toMatchObject({
      name: "wether",
      id: "invalid",
      rerouted: true,
      suggestion: "weather",
    })
    expect(jsonError(json)).toMatchObject({
      code: "TOOL_REROUTED",
      message: expect.stringContaining("did you mean weather?"),
    })

    const human = await runCli(["run", "wether", "--dir", directory, "--no-global", "--engine", "node"])
    expect(human.exitCode).toBe(6)
    expect(human.stdout).toContain("no tool is named wether; did you mean weather?")

    const far = await runCli(["run", "forecast", "--dir", directory, "--no-global", "--engine", "node", "--json"])
    expect(far.exitCode).toBe(6)
    expect(JSON.parse(far.stdout)).toMatchObject({ rerouted: true, suggestion: null })

    const known = await runCli(["run", "weather", "--dir", directory, "--no-global", "--engine", "node", "--json"])
    expect(known.exitCode).toBe(0)
    expect(JSON.parse(known.stdout)).not.toHaveProperty("suggestion")
  })

  test("a value missing after an option is a usage error pointing at the command's help", async () => {
    const result = await runCli(["list", "--dir", "--json"])
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain("--dir")
    expect(result.stderr).toContain("see npx @opencode-ai/tool-tester list --help")
  })

  test("an unknown flag exits 1 with one JSON error line on stderr under --json", async () => {
    const result = await runCli(["list", "--dir", basic, "--bogus", "--json"])
    expect(result.exitCode).toBe(1)
    expect(result.stdout).toBe("")
    expect(jsonError(result).code).toBe("USAGE")
    expect(jsonError(result).message).toContain("--bogus")
  })

  test("a --dir that does not exist exits 1 with PATH_NOT_FOUND", async () => {
    const result = await runCli(["list", "--dir", path.join(basic, "nope"), "--json"])
    expect(result.exitCode).toBe(1)
    expect(jsonError(result)).toMatchObject({
      code: "PATH_NOT_FOUND",
      message: `${path.join(basic, "nope")} does not exist; pass the project directory with --dir`,
    })
  })

  test("run without a tool name exits 1", async () => {
    const result = await runCli(["run", "--dir", basic, "--no-global", "--json"])
    expect(result.exitCode).toBe(1)
    expect(jsonError(result)).toMatchObject({ code: "USAGE", message: expect.stringContaining("tool name") })
  })

  test("run with two argument forms exits 1", async () => {
    const result = await runCli(["run", "greet", "--dir", basic, "--args", "{}", "name=Ada", "--json"])
    expect(result.exitCode).toBe(1)
    expect(jsonError(result).message).toContain("one way")
  })

  test("run with --args that is not JSON exits 1 with ARGS_UNPARSABLE", async () => {
    const result = await runCli(["run", "greet", "--dir", basic, "--no-global", "--args", "{name:", "--json"])
    expect(result.exitCode).toBe(1)
    expect(jsonError(result).code).toBe("ARGS_UNPARSABLE")
  })

  test("--args nested past 1000 levels is a usage error that names --raw-args; 1000 levels reach the tool", async () => {
    const nested = (levels: number) => `{"name":"Ada","d":${"[".repeat(levels - 1)}${"]".repeat(levels - 1)}}`
    const deep = await runCli(["run", "greet", "--dir", basic, "--no-global", "--args", nested(6000), "--json"])
    expect(deep.exitCode).toBe(1)
    expect(jsonError(deep)).toEqual({
      code: "USAGE",
      message:
        "--args nests deeper than 1000 levels; pass the same text with --raw-args, which hands it to opencode's pipeline as the model's text",
    })
    const kept = await runCli(["run", "greet", "--dir", basic, "--no-global", "--args", nested(1000), "--json"])
    expect(kept.exitCode, kept.stderr).toBe(0)
    expect(JSON.parse(kept.stdout).output).toBe("Hello, Ada!")
  })

  test("a positional that is not key=value exits 1", async () => {
    const result = await runCli(["run", "greet", "Ada", "--dir", basic, "--no-global"])
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain('"Ada" is not a key=value pair')
    // The value of greet's one required argument, written without its name: the pair to write.
    expect(result.stderr).toContain("did you mean name=Ada?")
    // Beside pairs too: the required argument they leave out.
    const mixed = await runCli(["run", "greet", "times=2", "Ada", "--dir", basic, "--no-global"])
    expect(mixed.stderr).toContain(
      '"Ada" is not a key=value pair; run takes one tool name, then key=value pairs; did you mean name=Ada?',
    )
    // Never a pair that does not fit the argument's schema (count is a number): 3 fits, three does not.
    const lines = fixture("cli-run-outcomes")
    const fitting = await runCli(["run", "many_lines", "3", "--dir", lines, "--no-global"])
    expect(fitting.stderr).toContain("did you mean count=3?")
    const unfit = await runCli(["run", "many_lines", "three", "--dir", lines, "--no-global"])
    expect(unfit.exitCode).toBe(1)
    expect(unfit.stderr).toContain('"three" is not a key=value pair')
    expect(unfit.stderr).not.toContain("did you mean")
  })

  test("numbers that are not positive whole numbers exit 1", async () => {
    for (const flag of ["--timeout", "--max-lines", "--max-bytes"]) {
      const result = await runCli(["run", "greet", "--dir", basic, flag, "1.5", "--json"])
      expect(result.exitCode).toBe(1)
      expect(jsonError(result).message).toContain(flag)
    }
  })

  // A timer's delay is 32 bits in Node and Bun: 2^31 ms fired at once, and every call was a timeout.
  test.each([
    ["run", "greet", "--dir", basic, "--no-global"],
    ["fuzz", "greet", "--dir", basic, "--no-global"],
    ["e2e", "--script", "e2e.json", "--dir", basic],
    ["eval", "--dir", basic],
    ["preflight", basic],
  ])("%s: a --timeout past what a timer can wait is a usage error (exit 1), not a timeout", async (...command) => {
    for (const value of ["2147483648", "2000000001"]) {
      const result = await runCli([...command, "--timeout", value, "--json"])
      expect(result.exitCode).toBe(1)
      expect(jsonError(result)).toEqual({
        code: "USAGE",
        message: `--timeout needs a whole number of milliseconds from 1 to 2000000000 (about 23 days), not "${value}"`,
      })
    }
  })

  test("human output has no colour codes when stdout is not a terminal", async () => {
    const result = await runCli(["list", "--dir", basic, "--no-global"], { env: { NO_COLOR: undefined } })
    expect(result.exitCode).toBe(0)
    expect(result.stdout).not.toContain("\u001b[")
  })

  test("FORCE_COLOR turns colours on, NO_COLOR and --json keep them off", async () => {
    const forced = await runCli(["list", "--dir", basic, "--no-global"], {
      env: { NO_COLOR: undefined, FORCE_COLOR: "1" },
    })
    expect(forced.stdout).toContain("\u001b[")
    const noColor = await runCli(["list", "--dir", basic, "--no-global"], { env: { FORCE_COLOR: "1" } })
    expect(noColor.stdout).not.toContain("\u001b[")
    const json = await runCli(["list", "--dir", basic, "--no-global", "--json"], {
      env: { NO_COLOR: undefined, FORCE_COLOR: "1" },
    })
    expect(json.stdout).not.toContain("\u001b[")
  })
})
