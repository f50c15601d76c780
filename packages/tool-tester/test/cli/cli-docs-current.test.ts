import { readFileSync } from "node:fs"
import { describe, expect, test } from "vitest"
import { CLI_DOCS, documentedCommands, withOptionTables } from "../../scripts/cli-docs.ts"
import { COMMAND_OPTIONS, parseConfigOf } from "../../src/cli/option-table.ts"
import { runCli } from "../helpers.ts"

describe("docs/cli.md's option tables come from the CLI's option table", () => {
  const docs = readFileSync(CLI_DOCS, "utf8")

  test("every command has its block, and each block is what the table makes (else run pnpm docs:cli)", () => {
    expect(documentedCommands(docs).sort()).toEqual(Object.keys(COMMAND_OPTIONS).sort())
    expect(withOptionTables(docs)).toBe(docs)
  })

  test("a stale block is rewritten with the table's options, and a block for no command is refused", () => {
    const stale = "<!-- options:fuzz -->\n| `--old` | gone |\n<!-- /options:fuzz -->"
    const fresh = withOptionTables(stale)
    expect(fresh).not.toContain("--old")
    expect(fresh).toContain("| `--runs N` | How many calls (default: 200) |")
    expect(() => withOptionTables("<!-- options:nope -->\n<!-- /options:nope -->")).toThrow(/no command/)
  })

  test("the parser takes exactly the table's options, short names included", () => {
    const config = parseConfigOf(COMMAND_OPTIONS.run)
    expect(Object.keys(config)).toEqual(Object.keys(COMMAND_OPTIONS.run))
    expect(config.help).toEqual({ type: "boolean", short: "h" })
    expect(config.deny).toEqual({ type: "string", multiple: true })
  })

  test("an option the help lists is one the command takes: dev --verbose parses", async () => {
    // dev took --verbose before its help listed it; now both come from one table.
    const result = await runCli(["dev", "--verbose", "--help"])
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toMatch(/^ {2}--verbose {2,}Also print/m)
  })
})
