// list and doctor run in a folder that gives no custom or plugin tool (most often: not the
// project's folder). Before, list printed the built-ins and doctor "No problems found (0 tool files,
// 0 tools).", and neither said that nothing of the user's was found, nor where opencode looks.
import { expect, test } from "vitest"
import { fixture, runCli, useTmpDir } from "../helpers.ts"

const HINT = "No custom or plugin tool found for "

for (const command of ["list", "doctor"])
  test(`${command} in a folder with no tool says so on stderr, naming the folder and where opencode looks`, {
    timeout: 120_000,
  }, async () => {
    const empty = useTmpDir()
    const result = await runCli([command, "--dir", empty, "--no-global"])
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stderr).toContain(
      `${HINT}${empty}: opencode reads tool files from .opencode/tool/ and .opencode/tools/`,
    )
    expect(result.stderr).toContain("Run tool-tester from your project's folder, or pass --dir with it.")
    // Not where there are tools, and never in --json.
    const tools = await runCli([command, "--dir", fixture("cli-basic"), "--no-global"])
    expect(tools.stderr).not.toContain(HINT)
    const json = await runCli([command, "--dir", empty, "--no-global", "--json"])
    expect(json.stderr).not.toContain(HINT)
  })
