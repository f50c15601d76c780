import path from "node:path"
import { describe, expect, test } from "vitest"
import { formatProgress, terminalProgress } from "../../src/cli/progress-line.ts"
import { fixture, runCli } from "../helpers.ts"

const basic = fixture("cli-basic")

describe("the progress line", () => {
  test("shows the phase and the time it has taken", () => {
    expect(formatProgress("running opencode", 0)).toBe("tool-tester: running opencode... 0s")
    expect(formatProgress("running opencode", 12_900)).toBe("tool-tester: running opencode... 12s")
    expect(formatProgress("installing opencode", 125_000)).toBe("tool-tester: installing opencode... 2m05s")
  })

  test("redraws one line in place, and clears it when done", () => {
    const written: string[] = []
    let clock = 1_000
    const progress = terminalProgress({ writeError: (text) => written.push(text) }, () => clock)
    progress.phase("finding opencode")
    clock = 4_000
    progress.phase("running opencode")
    progress.done()
    progress.done()
    expect(written).toEqual([
      "\r\u001b[2Ktool-tester: finding opencode... 0s",
      "\r\u001b[2Ktool-tester: running opencode... 0s",
      "\r\u001b[2K",
    ])
  })

  test("a line written on stderr while it is shown goes above it, and the line is drawn again after", () => {
    const written: string[] = []
    const io = { writeError: (text: string) => void written.push(text) }
    const progress = terminalProgress(io, () => 0)
    progress.phase("running opencode")
    io.writeError("[opencode serve] INFO listening\n")
    // A write that does not end its line: the progress waits for the write that does.
    io.writeError("warning: ")
    io.writeError("slow\n")
    progress.done()
    io.writeError("report\n")
    const line = "tool-tester: running opencode... 0s"
    expect(written).toEqual([
      `\r\u001b[2K${line}`,
      `\r\u001b[2K[opencode serve] INFO listening\n${line}`,
      "\r\u001b[2Kwarning: ",
      `slow\n${line}`,
      "\r\u001b[2K",
      "report\n",
    ])
  })
})

describe("e2e progress on the command line", { timeout: 60_000 }, () => {
  const args = [
    "e2e",
    "--dir",
    basic,
    "--script",
    path.join(basic, "e2e-script.json"),
    "--opencode",
    "/nonexistent/opencode",
  ]

  test("prints no progress when stderr is not a terminal", async () => {
    const result = await runCli(args)
    expect(result.exitCode).toBe(1)
    expect(result.stderr).not.toContain("tool-tester: finding opencode")
    expect(result.stderr).not.toContain("\r")
    expect(result.stderr).toContain("OPENCODE_NOT_FOUND")
  })

  // In-process with stderr a terminal: a pseudo-terminal (Linux's `script -qec`) exists on no
  // Windows and takes other flags on macOS; main.ts gives the CLI process.stderr.isTTY as is.
  test("draws the phase on stderr when it is a terminal, and clears the line before the report", async () => {
    const result = await runCli(args, { terminal: true })
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain("\r\u001b[2Ktool-tester: finding opencode... 0s")
    // The line is cleared before the failure is printed.
    const cleared = result.stderr.lastIndexOf("\r\u001b[2K")
    expect(cleared).toBeGreaterThan(result.stderr.indexOf("finding opencode"))
    expect(result.stderr.indexOf("OPENCODE_NOT_FOUND")).toBeGreaterThan(cleared)
  })

  // --json changes stdout only, as fuzz's: the line is drawn, and the JSON failure follows the cleared line.
  test("draws the phase with --json too, the failure line last on stderr", async () => {
    const result = await runCli([...args, "--json"], { terminal: true })
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain("\r\u001b[2Ktool-tester: finding opencode... 0s")
    const afterLine = result.stderr.slice(result.stderr.lastIndexOf("\r\u001b[2K") + "\r\u001b[2K".length)
    expect(JSON.parse(afterLine).error.code).toBe("OPENCODE_NOT_FOUND")
    expect(result.stdout).toBe("")
  })
})
