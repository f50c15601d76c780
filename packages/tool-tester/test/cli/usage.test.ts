import { readFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, test } from "vitest"
import { fixture, jsonError, packageRoot, runCli } from "../helpers.ts"

const basic = fixture("cli-basic")
const version = (JSON.parse(readFileSync(path.join(packageRoot, "package.json"), "utf8")) as { version: string })
  .version

describe("help, version and usage errors", { timeout: 60_000 }, () => {
  test("--help prints the usage of every command and exits 0", async () => {
    const result = await runCli(["--help"])
    expect(result.exitCode).toBe(0)
    for (const command of ["list", "schema", "run", "doctor", "e2e"])
      expect(result.stdout).toContain(`tool-tester ${command}`)
    expect(result.stdout).toContain("Exit codes")
  })

  test("-h after a command prints the same help", async () => {
    const result = await runCli(["run", "-h"])
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toContain("Usage: tool-tester <command>")
  })

  test("-v and --version print the package version", async () => {
    for (const flag of ["-v", "--version"]) {
      const result = await runCli([flag])
      expect(result.exitCode).toBe(0)
      expect(result.stdout.trim()).toBe(version)
    }
  })

  test("no command prints the help on stderr and exits 1", async () => {
    const result = await runCli([])
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain("Usage:")
  })

  test("an unknown command exits 1 with a readable message", async () => {
    const result = await runCli(["lint"])
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain('unknown command "lint"')
  })

  test("an unknown flag exits 1 with one JSON error line on stderr under --json", async () => {
    const result = await runCli(["list", "--dir", basic, "--bogus", "--json"])
    expect(result.exitCode).toBe(1)
    expect(result.stdout).toBe("")
    expect(jsonError(result).code).toBe("USAGE")
    expect(jsonError(result).message).toContain("--bogus")
  })

  test("a --dir that does not exist exits 1 with PATH_NOT_FOUND", async () => {
    const result = await runCli(["list", "--dir", path.join(basic, "nope"), "--json"])
    expect(result.exitCode).toBe(1)
    expect(jsonError(result).code).toBe("PATH_NOT_FOUND")
  })

  test("run without a tool name exits 1", async () => {
    const result = await runCli(["run", "--dir", basic, "--no-global", "--json"])
    expect(result.exitCode).toBe(1)
    expect(jsonError(result)).toMatchObject({ code: "USAGE", message: expect.stringContaining("tool name") })
  })

  test("run with two argument forms exits 1", async () => {
    const result = await runCli(["run", "greet", "--dir", basic, "--args", "{}", "name=Ada", "--json"])
    expect(result.exitCode).toBe(1)
    expect(jsonError(result).message).toContain("one way")
  })

  test("run with --args that is not JSON exits 1 with ARGS_UNPARSABLE", async () => {
    const result = await runCli(["run", "greet", "--dir", basic, "--no-global", "--args", "{name:", "--json"])
    expect(result.exitCode).toBe(1)
    expect(jsonError(result).code).toBe("ARGS_UNPARSABLE")
  })

  test("a positional that is not key=value exits 1", async () => {
    const result = await runCli(["run", "greet", "Ada", "--dir", basic, "--no-global"])
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain('"Ada" is not a key=value pair')
  })

  test("numbers that are not positive whole numbers exit 1", async () => {
    for (const flag of ["--timeout", "--max-lines", "--max-bytes"]) {
      const result = await runCli(["run", "greet", "--dir", basic, flag, "1.5", "--json"])
      expect(result.exitCode).toBe(1)
      expect(jsonError(result).message).toContain(flag)
    }
  })

  test("human output has no colour codes when stdout is not a terminal", async () => {
    const result = await runCli(["list", "--dir", basic, "--no-global"], { env: { NO_COLOR: undefined } })
    expect(result.exitCode).toBe(0)
    expect(result.stdout).not.toContain("\u001b[")
  })

  test("FORCE_COLOR turns colours on, NO_COLOR and --json keep them off", async () => {
    const forced = await runCli(["list", "--dir", basic, "--no-global"], {
      env: { NO_COLOR: undefined, FORCE_COLOR: "1" },
    })
    expect(forced.stdout).toContain("\u001b[")
    const noColor = await runCli(["list", "--dir", basic, "--no-global"], { env: { FORCE_COLOR: "1" } })
    expect(noColor.stdout).not.toContain("\u001b[")
    const json = await runCli(["list", "--dir", basic, "--no-global", "--json"], {
      env: { NO_COLOR: undefined, FORCE_COLOR: "1" },
    })
    expect(json.stdout).not.toContain("\u001b[")
  })
})
