// An option that takes a value, followed by another option (`--dir --json`): Node's parser says so
// in three lines; the CLI says it in one, with what to write instead.
import { describe, expect, test } from "vitest"
import { fixture, runCli } from "../helpers.ts"

describe("an option whose value is missing because another option follows", { timeout: 60_000 }, () => {
  test("one line naming the option and the fix, exit 1", async () => {
    const result = await runCli(["list", "--dir", "--verbose"])
    expect(result.exitCode).toBe(1)
    expect(result.stdout).toBe("")
    const lines = result.stderr.trim().split("\n")
    expect(lines.at(-1)).toBe(
      "✖ --dir needs a value, and the word after it starts with a dash: give the value after --dir (or write --dir=VALUE when the value itself starts with a dash); see npx @opencode-ai/tool-tester list --help [USAGE]",
    )
    expect(result.stderr).not.toContain("\\n")
  })

  test("with --json, the same one line in the error object", async () => {
    const result = await runCli(["list", "--dir", "--json"])
    expect(result.exitCode).toBe(1)
    const error = JSON.parse(result.stderr.trim().split("\n").at(-1)!) as { error: { code: string; message: string } }
    expect(error.error.code).toBe("USAGE")
    expect(error.error.message).not.toContain("\n")
    expect(error.error.message).toContain("--dir needs a value")
  })
})

describe("an option given an empty value (an unset shell variable)", { timeout: 60_000 }, () => {
  test.each([
    [["list", "--plugin", ""], "plugin", "list"],
    [["list", "--model="], "model", "list"],
    [["schema", "--dir", ""], "dir", "schema"],
    [["run", "greet", "--deny", ""], "deny", "run"],
    [["list", "--plugin", "x", "--plugin", ""], "plugin", "list"],
  ])("%j: one USAGE line naming it, exit 1, nothing run", async (argv, option, command) => {
    const result = await runCli(argv)
    expect(result.exitCode).toBe(1)
    expect(result.stdout).toBe("")
    expect(result.stderr).toBe(
      `✖ --${option} is empty: give it a value, or leave it out (see npx @opencode-ai/tool-tester ${command} --help) [USAGE]\n`,
    )
  })

  test("--raw-args is the text a model sends, and empty text is such a text: kept", async () => {
    const result = await runCli(["run", "greet", "--raw-args", "", "--dir", fixture("cli-basic"), "--json"])
    expect(result.stderr).not.toContain("is empty")
    expect(result.exitCode).not.toBe(1)
  })
})
