import { EventEmitter } from "node:events"
import { describe, expect, test } from "vitest"
import type { CliIO } from "../../src/cli/_command.ts"
import { fuzzProgress } from "../../src/cli/fuzz-progress.ts"
import { aroundWarnings } from "../../src/cli/node-warnings.ts"
import { runCli } from "../helpers.ts"
import { tmpProject } from "../support/tmp-project.ts"
import { robustWeather } from "../support/robust-weather.ts"

/** A CliIO that keeps what is written on stderr. */
function io(stderrIsTTY: boolean, env: Record<string, string | undefined> = {}): CliIO & { stderr: string[] } {
  const stderr: string[] = []
  return {
    cwd: process.cwd(),
    env,
    stdoutIsTTY: stderrIsTTY,
    stderrIsTTY,
    write: () => {},
    writeError: (text) => stderr.push(text),
    chdir: () => {},
    onInterrupt: () => () => {},
    stderr,
  }
}

describe("fuzz's progress", () => {
  test("at a terminal, a warning Node prints on stderr itself goes above the line, which is drawn again after it", () => {
    const cli = io(true)
    // Stands for `process`, with the 'warning' listener Node adds at start-up: it writes on
    // stderr itself, not through the CLI's writeError.
    const node = new EventEmitter()
    const nodePrinter = (warning: Error) => void cli.stderr.push(`(node:1) ${warning.name}: ${warning.message}\n`)
    node.on("warning", nodePrinter)
    cli.aroundWarnings = aroundWarnings(node)
    let clock = 0
    const progress = fuzzProgress(cli, "weather", 10, () => clock)
    const warning = Object.assign(new Error("11 exit listeners added"), { name: "MaxListenersExceededWarning" })
    progress.update(1, 0)
    node.emit("warning", warning)
    clock = 1_000
    progress.update(2, 0)
    progress.done()
    node.emit("warning", warning)
    const line = (calls: number, seconds: number) =>
      `tool-tester: fuzzing weather, ${calls} call${calls === 1 ? "" : "s"} (--runs 10), 0 failures so far... ${seconds}s`
    expect(cli.stderr).toEqual([
      `\r\u001b[2K${line(1, 0)}`,
      "\r\u001b[2K",
      "(node:1) MaxListenersExceededWarning: 11 exit listeners added\n",
      line(1, 0),
      `\r\u001b[2K${line(2, 1)}`,
      "\r\u001b[2K",
      // Once the line is cleared, Node's printing is left alone.
      "(node:1) MaxListenersExceededWarning: 11 exit listeners added\n",
    ])
    expect(node.listeners("warning")).toEqual([nodePrinter])
  })

  test("outside a terminal: a plain line at most every 10 s, not one per call", () => {
    const cli = io(false)
    let clock = 0
    const progress = fuzzProgress(cli, "weather", 100_000, () => clock)
    for (const [at, calls] of [
      [1_000, 10],
      [9_999, 900],
      [10_000, 1_000],
      [15_000, 1_500],
      [21_000, 2_100],
    ] as const) {
      clock = at
      progress.update(calls, calls < 2_000 ? 0 : 1)
    }
    progress.done()
    expect(cli.stderr).toEqual([
      "tool-tester: fuzzing weather, 1000 calls (--runs 100000), 0 failures so far... 10s\n",
      "tool-tester: fuzzing weather, 2100 calls (--runs 100000), 1 failure so far... 21s\n",
    ])
  })

  test("TOOL_TESTER_PROGRESS_MS sets how often; 0 writes nothing; anything else is a usage error", () => {
    const often = io(false, { TOOL_TESTER_PROGRESS_MS: "500" })
    let clock = 0
    const progress = fuzzProgress(often, "weather", 10, () => clock)
    clock = 600
    progress.update(3, 0)
    expect(often.stderr).toEqual(["tool-tester: fuzzing weather, 3 calls (--runs 10), 0 failures so far... 0s\n"])
    const never = io(false, { TOOL_TESTER_PROGRESS_MS: "0" })
    const silent = fuzzProgress(never, "weather", 10, () => clock)
    clock += 60_000
    silent.update(5, 0)
    silent.done()
    expect(never.stderr).toEqual([])
    expect(() => fuzzProgress(io(false, { TOOL_TESTER_PROGRESS_MS: "5s" }), "weather", 10)).toThrow(
      'TOOL_TESTER_PROGRESS_MS is "5s": give how often tool-tester prints its progress off a terminal in whole milliseconds',
    )
  })

  test("at a terminal: one line drawn at the first call, redrawn at most every second, cleared before the report", () => {
    const cli = io(true)
    let clock = 0
    const progress = fuzzProgress(cli, "weather", 500, () => clock)
    clock = 500
    progress.update(1, 0)
    clock = 900
    progress.update(30, 0)
    clock = 1_600
    progress.update(40, 0)
    clock = 1_700
    progress.update(41, 0)
    progress.done()
    expect(cli.stderr).toEqual([
      "\r\u001b[2Ktool-tester: fuzzing weather, 1 call (--runs 500), 0 failures so far... 0s",
      "\r\u001b[2Ktool-tester: fuzzing weather, 40 calls (--runs 500), 0 failures so far... 1s",
      "\r\u001b[2K",
    ])
  })

  test("at a terminal: a line written on stderr meanwhile (a --verbose server log) goes above the line, drawn again after it", () => {
    const cli = io(true)
    const progress = fuzzProgress(cli, "weather", 500, () => 0)
    progress.update(1, 0)
    cli.writeError("[opencode serve] INFO listening\n")
    progress.done()
    cli.writeError("report\n")
    const line = "tool-tester: fuzzing weather, 1 call (--runs 500), 0 failures so far... 0s"
    expect(cli.stderr).toEqual([
      `\r\u001b[2K${line}`,
      `\r\u001b[2K[opencode serve] INFO listening\n${line}`,
      "\r\u001b[2K",
      "report\n",
    ])
  })
})

describe("tool-tester fuzz's progress on the command line", { timeout: 120_000 }, () => {
  const plainLine = /^tool-tester: fuzzing weather, \d+ calls? \(--runs 40\), 0 failures so far\.\.\. \d+s$/m

  test("outside a terminal: plain lines on stderr, with or without --json; stdout is the report as without them", async () => {
    const directory = tmpProject({ ".opencode/tools/weather.ts": robustWeather })
    const args = ["fuzz", "weather", "--runs", "40", "--seed", "3", "--no-global", "--engine", "node"]
    // 1 ms: a line at most every millisecond, so even this short run writes some.
    const shown = await runCli(args, { cwd: directory, env: { TOOL_TESTER_PROGRESS_MS: "1" } })
    expect(shown.exitCode, shown.stderr).toBe(0)
    expect(shown.stderr).toMatch(plainLine)
    expect(shown.stderr).not.toContain("\r")
    const silent = await runCli(args, { cwd: directory, env: { TOOL_TESTER_PROGRESS_MS: "0" } })
    expect(silent.exitCode, silent.stderr).toBe(0)
    expect(silent.stderr).not.toContain("tool-tester: fuzzing")
    expect(shown.stdout).toBe(silent.stdout)
    // A CI job running a long fuzz --json sees it is alive; stdout stays the one JSON document.
    const json = await runCli([...args, "--json"], { cwd: directory, env: { TOOL_TESTER_PROGRESS_MS: "1" } })
    expect(json.exitCode, json.stderr).toBe(0)
    expect(json.stderr).toMatch(plainLine)
    expect(json.stderr).not.toContain("\r")
    expect(JSON.parse(json.stdout)).toMatchObject({ tool: "weather", runs: 40, failures: [] })
  })

  test("at a terminal with --json: the redrawn line on stderr, cleared at the end, no plain line; stdout is JSON", async () => {
    const directory = tmpProject({ ".opencode/tools/weather.ts": robustWeather })
    const args = ["fuzz", "weather", "--runs", "40", "--seed", "3", "--no-global", "--engine", "node", "--json"]
    const json = await runCli(args, { cwd: directory, terminal: true, env: { TOOL_TESTER_PROGRESS_MS: "1" } })
    expect(json.exitCode, json.stderr).toBe(0)
    expect(json.stderr).toContain("\r\u001b[2Ktool-tester: fuzzing weather, 1 call (--runs 40)")
    expect(json.stderr).not.toMatch(plainLine)
    expect(json.stderr.endsWith("\r\u001b[2K")).toBe(true)
    expect(JSON.parse(json.stdout)).toMatchObject({ tool: "weather", runs: 40, failures: [] })
  })
})
