// The CLI tests run command lines in-process (runCli); these run the built bin for what only the
// bin shows: that its exit status is the exit code the command line returned, and that everything
// it printed reaches the pipes before it exits, for each kind of ending.
import { closeSync, existsSync, openSync } from "node:fs"
import { describe, expect, test } from "vitest"
import { fixture, jsonError, runBin, runCli } from "../helpers.ts"

const basic = fixture("cli-basic")
const outcomes = fixture("cli-run-outcomes")

describe("the built bin", { timeout: 120_000 }, () => {
  test.each([
    ["a completed run", ["run", "greet", "name=Ada", "--dir", basic, "--no-global", "--json"], 0],
    ["a usage error", ["run", "greet", "--dir", basic, "--frobnicate", "--json"], 1],
    ["a tool that throws", ["run", "throws", "--dir", outcomes, "--no-global", "--engine", "node", "--json"], 4],
    ["an unknown command", ["deploy", "--json"], 1],
  ] as const)("exits with the code of the command line, in-process alike: %s", async (_, args, code) => {
    const [bin, inProcess] = [await runBin([...args]), await runCli([...args])]
    expect(bin.exitCode, bin.stderr).toBe(code)
    expect(inProcess.exitCode).toBe(code)
    expect(bin.stdout === "" ? bin.stdout : Object.keys(JSON.parse(bin.stdout))).toEqual(
      inProcess.stdout === "" ? inProcess.stdout : Object.keys(JSON.parse(inProcess.stdout)),
    )
    if (code !== 0) expect(jsonError(bin)).toEqual(jsonError(inProcess))
  })

  test("prints a long report whole before it exits", async () => {
    // About 2.5 MB of JSON on one line: far more than a pipe holds while the bin exits.
    const args = ["run", "many_lines", "count=200000", "--max-lines", "300000", "--max-bytes", "10000000"]
    const result = await runBin([...args, "--dir", outcomes, "--no-global", "--json"])
    expect(result.exitCode, result.stderr).toBe(0)
    const json = JSON.parse(result.stdout) as { output: string; truncated: boolean }
    expect(json.truncated).toBe(false)
    expect(json.output.split("\n")).toHaveLength(200_000)
    expect(json.output.endsWith("line 200000")).toBe(true)
  })

  test.skipIf(!existsSync("/dev/full"))(
    "output that cannot be written (a full disk: /dev/full, Linux) is OUTPUT_FAILED on stderr and exit 1, never a success",
    async () => {
      const full = openSync("/dev/full", "w")
      try {
        for (const [args, json] of [
          [["list", "--dir", basic, "--no-global"], false],
          [["list", "--dir", basic, "--no-global", "--json"], true],
          [["--version"], false],
        ] as const) {
          const result = await runBin([...args], { stdoutFd: full })
          expect(result.exitCode, args.join(" ")).toBe(1)
          const message =
            "tool-tester could not write its stdout (ENOSPC): what it printed there is lost; send it where there is room (another disk, or the terminal) and run the command again"
          const lastLine = result.stderr.trimEnd().split("\n").at(-1)
          if (json) expect(jsonError(result)).toEqual({ code: "OUTPUT_FAILED", message })
          else expect(lastLine).toBe(`✖ ${message} [OUTPUT_FAILED]`)
        }
        // A command that failed keeps its own status: the lost output is said after it.
        const failed = await runBin(["run", "nope", "--dir", basic, "--no-global"], { stdoutFd: full })
        expect(failed.exitCode).toBe(6)
        expect(failed.stderr).toContain("[OUTPUT_FAILED]")
      } finally {
        closeSync(full)
      }
    },
  )
})
