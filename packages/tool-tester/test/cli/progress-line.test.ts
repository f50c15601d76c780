import { spawnSync } from "node:child_process"
import path from "node:path"
import { describe, expect, test } from "vitest"
import { formatProgress, terminalProgress } from "../../src/cli/progress-line.ts"
import { fixture, packageRoot, runCli, useTmpDir } from "../helpers.ts"

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
    const progress = terminalProgress(
      (text) => written.push(text),
      () => clock,
    )
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

  test("draws the phase on stderr when it is a terminal, and clears the line before the report", () => {
    // `script` gives the bin a pseudo-terminal, as a person's shell would.
    const home = useTmpDir("tool-tester-home-")
    const command = [process.execPath, path.join(packageRoot, "bin.js"), ...args].map(shellQuote).join(" ")
    const result = spawnSync("script", ["-qec", command, "/dev/null"], {
      encoding: "utf8",
      env: { ...process.env, HOME: home, XDG_CACHE_HOME: path.join(home, ".cache"), NO_COLOR: "1" },
      timeout: 60_000,
    })
    expect(result.status).toBe(1)
    expect(result.stdout).toContain("\r\u001b[2Ktool-tester: finding opencode... 0s")
    // The line is cleared before the failure is printed.
    const cleared = result.stdout.lastIndexOf("\r\u001b[2K")
    expect(cleared).toBeGreaterThan(result.stdout.indexOf("finding opencode"))
    expect(result.stdout.indexOf("OPENCODE_NOT_FOUND")).toBeGreaterThan(cleared)
  })

  test("prints no progress with --json, even on a terminal", () => {
    const home = useTmpDir("tool-tester-home-")
    const command = [process.execPath, path.join(packageRoot, "bin.js"), ...args, "--json"].map(shellQuote).join(" ")
    const result = spawnSync("script", ["-qec", command, "/dev/null"], {
      encoding: "utf8",
      env: { ...process.env, HOME: home, XDG_CACHE_HOME: path.join(home, ".cache"), NO_COLOR: "1" },
      timeout: 60_000,
    })
    expect(result.status).toBe(1)
    expect(result.stdout).toContain("OPENCODE_NOT_FOUND")
    expect(result.stdout).not.toContain("tool-tester: finding opencode")
  })
})

// --- internal ---

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`
}
