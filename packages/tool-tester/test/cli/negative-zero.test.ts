import { describe, expect, test } from "vitest"
import { runCli } from "../helpers.ts"
import { negativeZeroTool } from "../support/negative-zero-tool.ts"
import { tmpProject } from "../support/tmp-project.ts"

describe("-0 in a tool's arguments stays -0", { timeout: 120_000 }, () => {
  test.each(["bun", "node"])("run --args gives the tool -0, and the report shows it (%s engine)", async (engine) => {
    const directory = tmpProject({ ".opencode/tools/negz.ts": negativeZeroTool })
    const flags = ["--dir", directory, "--no-global", "--engine", engine]
    for (const given of [["--args", '{"n":-0}'], ["--raw-args", '{"n":-0}'], ["n=-0"]]) {
      const result = await runCli(["run", "negz", ...given, ...flags, "--json"])
      expect(result.exitCode, given.join(" ")).toBe(4)
      expect(result.stdout, given.join(" ")).toContain('"args":{"n":-0}')
      expect(result.stdout).toContain('"output":"got -0"')
    }
    const text = await runCli(["run", "negz", "--args", '{"n":-0}', ...flags])
    expect(text.stdout).toMatch(/args\s+\{"n":-0\}/)
  })

  test.each(["bun", "node"])(
    "fuzz prints a failure found with -0 as arguments that replay it (%s engine)",
    async (engine) => {
      const directory = tmpProject({ ".opencode/tools/negz.ts": negativeZeroTool })
      const flags = ["--dir", directory, "--no-global", "--engine", engine]
      const json = await runCli(["fuzz", "negz", "--seed", "7", "--runs", "300", "--json", ...flags])
      expect(json.exitCode).toBe(4)
      expect(json.stdout).toContain('"args":{"n":-0}')
      const failure = (JSON.parse(json.stdout) as { failures: Array<{ args: { n: number } }> }).failures[0]!
      expect(Object.is(failure.args.n, -0)).toBe(true)
      const text = await runCli(["fuzz", "negz", "--seed", "7", "--runs", "300", ...flags])
      const printed = /args\s+(\{.*\})/.exec(text.stdout)?.[1]
      expect(printed).toBe('{"n":-0}')
      // Pasted into run --args, the printed arguments fail the same way.
      const replay = await runCli(["run", "negz", "--args", printed!, ...flags])
      expect(replay.exitCode).toBe(4)
      expect(replay.stdout).toContain("got -0")
    },
  )
})
