import { describe, expect, test } from "vitest"
import { COMMAND_ARGUMENTS, COMMAND_OPTIONS, type CommandName } from "../../src/cli/option-table.ts"
import { runCli } from "../helpers.ts"

/**
 * Every option each command parses, as its help must list them: the option table is the one
 * definition both come from (src/cli/option-table.ts).
 */
const OPTIONS: Record<string, string[]> = Object.fromEntries(
  Object.entries(COMMAND_OPTIONS).map(([command, table]) => [
    command,
    [
      ...(COMMAND_ARGUMENTS[command as CommandName] ?? []).map((argument) => argument.name),
      ...Object.keys(table).map((option) => `--${option}`),
    ],
  ]),
)

describe("per-command help", { timeout: 60_000 }, () => {
  test.each(Object.keys(OPTIONS))(
    "%s --help lists its usage, every option with a meaning, and examples",
    async (command) => {
      const result = await runCli([command, "--help"])
      expect(result.exitCode).toBe(0)
      expect(result.stderr).toBe("")
      const help = result.stdout
      expect(help).toMatch(new RegExp(`^Usage: tool-tester ${command} `))
      const optionLines = help.slice(help.indexOf("\nOptions:\n"), help.indexOf("\nExamples:\n")).split("\n")
      for (const option of OPTIONS[command]!) {
        const line = optionLines.find((candidate) => new RegExp(`^  (-h, )?${option}\\b`).test(candidate))
        expect(line, `${command} --help lists ${option}`).toBeDefined()
        // A flag, then at least two spaces, then its meaning.
        expect(line).toMatch(/^ {2}\S.*? {2,}\w/)
      }
      const examples = help.slice(help.indexOf("\nExamples:\n")).split("\n").slice(2)
      // Run from this checkout, the examples start with the scoped package, which runs as pasted (invocation.ts).
      expect(examples[0]).toMatch(new RegExp(`^  npx @opencode-ai/tool-tester ${command}\\b`))
      expect(examples.filter((line) => line.startsWith("  tool-tester"))).toEqual([])
    },
  )

  test.each(Object.keys(OPTIONS))("help %s prints the same text as the command's --help", async (command) => {
    const [viaHelp, viaFlag] = await Promise.all([runCli(["help", command]), runCli([command, "-h"])])
    expect(viaHelp.exitCode).toBe(0)
    expect(viaHelp.stdout).toBe(viaFlag.stdout)
    expect(viaHelp.stdout).not.toContain("Commands:")
  })

  test("the e2e help explains the script format and where opencode comes from", async () => {
    const { stdout } = await runCli(["e2e", "--help"])
    for (const word of ['"turns"', '"calls"', '"tool"', '"args"', "rawArgs", '"text"', "prompt"])
      expect(stdout).toContain(word)
    expect(stdout).toMatch(/--opencode-version V +Install this opencode version/)
    expect(stdout).toMatch(
      /--opencode PATH +The opencode binary to run: its path, or a command name looked up on PATH \(default: /,
    )
    expect(stdout).toMatch(/--config JSON +opencode config merged over/)
  })

  test("help points at the docs with a full link, never with a link relative to the repository", async () => {
    for (const args of [["--help"], ["run", "--help"], ["e2e", "--help"]]) {
      const { stdout } = await runCli(args)
      expect(stdout).toContain("README.md in node_modules/@opencode-ai/tool-tester")
      expect(stdout).toContain("Docs: https://github.com/opencode-tool-kit/opencode-tool-kit/blob/main/docs/cli.md")
      // The one link is absolute; no other path or link into the repository.
      const rest = stdout.replace(
        /https:\/\/github\.com\/opencode-tool-kit\/opencode-tool-kit\/blob\/main\/docs\/cli\.md(#[a-z0-9]+)?/,
        "",
      )
      expect(rest).not.toContain("docs/")
      expect(rest).not.toContain("](")
    }
  })

  test("the global help names `tool-tester help <command>`", async () => {
    const result = await runCli(["--help"])
    expect(result.stdout).toContain("tool-tester help <command>")
  })

  test("help for a command that does not exist is a usage error with a suggestion", async () => {
    const result = await runCli(["help", "shema"])
    expect(result.exitCode).toBe(1)
    expect(result.stdout).toBe("")
    expect(result.stderr).toContain('unknown command "shema"; did you mean "schema"?')
  })
})
