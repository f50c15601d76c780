import { describe, expect, test } from "vitest"
import { shellWord } from "../../src/_shell-quote.ts"
import { runCli } from "../helpers.ts"
import { tmpProject } from "../support/tmp-project.ts"
import { robustWeather } from "../support/robust-weather.ts"

type FuzzJson = {
  tool: string
  seed: number
  runs: number
  calls: number
  replay: string
  failures: Array<{ kind: string; code: string; thrown?: string; message: string; args: unknown; output?: string }>
  engine: { name: string }
}

const fragile = `import { tool } from "@opencode-ai/plugin"
export default tool({
  description: "Weather",
  args: { city: tool.schema.string(), days: tool.schema.number().optional() },
  async execute(args) { return args.city.toUpperCase() + " for " + (args.days ?? 1) + " days" },
})
`

describe("tool-tester fuzz", { timeout: 120_000 }, () => {
  test.each(["bun", "node"])(
    "reports the planted crash with shrunk arguments and the seed, exit 4 (%s engine)",
    async (engine) => {
      const directory = tmpProject({ ".opencode/tools/weather.ts": fragile })
      const result = await runCli(
        ["fuzz", "weather", "--runs", "200", "--seed", "7", "--json", "--no-global", "--engine", engine],
        {
          cwd: directory,
        },
      )
      expect(result.exitCode, result.stderr).toBe(4)
      const report = JSON.parse(result.stdout) as FuzzJson
      expect(report).toMatchObject({ tool: "weather", seed: 7, runs: 200, engine: { name: engine } })
      // Not a bare `tool-tester`, which no shell finds: this bin runs from a checkout, so the scoped package.
      expect(report.replay).toBe(
        `npx @opencode-ai/tool-tester fuzz weather --no-global --engine ${engine} --seed 7 --runs 200 --timeout 5000`,
      )
      expect(report.failures.map((failure) => failure.args)).toContainEqual({})
      expect(report.failures.every((failure) => failure.kind === "crash" && failure.thrown === "TypeError")).toBe(true)

      const again = await runCli(
        ["fuzz", "weather", "--runs", "200", "--seed", "7", "--json", "--no-global", "--engine", engine],
        {
          cwd: directory,
        },
      )
      expect((JSON.parse(again.stdout) as FuzzJson).failures).toEqual(report.failures)
    },
  )

  test("another file that fails to load: exit 3, and with --json stdout's report and stderr's failure line", async () => {
    const directory = tmpProject({
      ".opencode/tools/weather.ts": robustWeather,
      ".opencode/tools/broken.ts": "export default {\n",
    })
    const result = await runCli(["fuzz", "weather", "--runs", "3", "--seed", "1", "--json", "--no-global"], {
      cwd: directory,
    })
    expect(result.exitCode).toBe(3)
    expect(JSON.parse(result.stdout)).toMatchObject({ tool: "weather", failures: [] })
    const lines = result.stderr.trimEnd().split("\n")
    expect(lines).toHaveLength(1)
    expect(JSON.parse(lines[0]!)).toEqual({
      error: { code: "IMPORT_FAILED", message: expect.stringContaining("broken.ts: failed to import") },
    })
  })

  test("a robust tool: no failure, exit 0, and the human report names the seed to replay", async () => {
    const directory = tmpProject({ ".opencode/tools/weather.ts": robustWeather })
    const result = await runCli(["fuzz", "weather", "--runs", "100", "--seed", "3", "--no-global"], { cwd: directory })
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toContain("no failure found")
    expect(result.stdout).toContain("100 calls, seed 3")
    expect(result.stdout).toContain(
      "replay: npx @opencode-ai/tool-tester fuzz weather --no-global --seed 3 --runs 100 --timeout 5000",
    )
  })

  test.each(["bun", "node"])(
    "an error a timer throws outside execute is a failure with its arguments and the replay, exit 4 (%s engine)",
    async (engine) => {
      // A refusal on purpose is not reported; the throw from the timer for an empty city is.
      const source = `import { tool } from "@opencode-ai/plugin"
export default tool({
  description: "Weather",
  args: { city: tool.schema.string() },
  async execute(args) {
    if (typeof args.city !== "string") throw new Error("city must be a string")
    if (args.city === "") setTimeout(() => { throw new Error("no station for an empty city") }, 0)
    return "weather in " + args.city.slice(0, 50)
  },
})
`
      const directory = tmpProject({ ".opencode/tools/weather.ts": source })
      const args = ["fuzz", "weather", "--runs", "100", "--seed", "9", "--no-global", "--engine", engine]
      const json = await runCli([...args, "--json"], { cwd: directory })
      expect(json.exitCode, json.stderr).toBe(4)
      const report = JSON.parse(json.stdout) as FuzzJson
      expect(report.failures).toEqual([
        {
          kind: "escaped",
          code: "ESCAPED_ERROR",
          message:
            "Error: no station for an empty city escaped the call (thrown from a timer or an event handler); opencode prints it on stderr and keeps the call's result, and `opencode run` then exits 1: catch it inside the callback",
          args: { city: "" },
          output: "weather in ",
          rerun: `npx @opencode-ai/tool-tester run weather --no-global --engine ${engine} --args ${shellWord('{"city":""}')}`,
        },
      ])
      const human = await runCli(args, { cwd: directory })
      expect(human.exitCode, human.stderr).toBe(4)
      expect(human.stdout).toContain("1. escaped  ESCAPED_ERROR")
      expect(human.stdout).toContain('args     {"city":""}')
      expect(human.stdout).toContain(
        `replay: npx @opencode-ai/tool-tester fuzz weather --no-global --engine ${engine} --seed 9 --runs 100 --timeout 5000`,
      )
    },
  )

  test("bad input: no name, a bad --runs, an unknown tool", async () => {
    const directory = tmpProject({ ".opencode/tools/weather.ts": robustWeather })
    const noName = await runCli(["fuzz", "--no-global"], { cwd: directory })
    expect(noName.exitCode).toBe(1)
    // In the words that run this bin (from a checkout, the scoped package), never a bare tool-tester.
    // fuzz's engine is up too: the tools it could fuzz are listed, as run lists them.
    expect(noName.stderr).toContain(
      "fuzz needs a tool name: npx @opencode-ai/tool-tester fuzz NAME [--runs N] [--seed S] (the project's tools: weather) [USAGE]",
    )
    const runNoName = await runCli(["run", "--no-global"], { cwd: directory })
    expect(runNoName.exitCode).toBe(1)
    expect(runNoName.stderr).toContain(
      // run's engine is up: the tools it could name are listed.
      "run needs a tool name: npx @opencode-ai/tool-tester run NAME [key=value ...] (the project's tools: weather) [USAGE]",
    )
    const badRuns = await runCli(["fuzz", "weather", "--runs", "0", "--no-global"], { cwd: directory })
    expect(badRuns.exitCode).toBe(1)
    expect(badRuns.stderr).toContain('--runs needs a whole number of at least 1, not "0"')
    // Too large to be exact: the message names the largest.
    const hugeSeed = await runCli(["fuzz", "weather", "--seed", "99999999999999999999", "--no-global"], {
      cwd: directory,
    })
    expect(hugeSeed.exitCode).toBe(1)
    expect(hugeSeed.stderr).toContain(
      '--seed needs a whole number from 0 to 9007199254740991, not "99999999999999999999" [USAGE]',
    )
    const unknown = await runCli(["fuzz", "wether", "--no-global"], { cwd: directory })
    expect(unknown.exitCode).toBe(1)
    expect(unknown.stderr).toContain(
      'no custom or plugin tool is named wether: fuzz one of weather; did you mean "weather"?',
    )
    // No tool at all: where opencode looks for them, not "one of (none found)".
    const none = await runCli(["fuzz", "weather", "--no-global"], { cwd: tmpProject({}) })
    expect(none.exitCode).toBe(1)
    expect(none.stderr).toContain(
      "no custom or plugin tool is named weather: this project has no custom or plugin tool: opencode reads tool files from .opencode/tools/",
    )
  })
})
