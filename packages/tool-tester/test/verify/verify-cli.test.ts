// `tool-tester verify` on bad input, in-process: each gets one line with a code, before any probe runs.
import { chmodSync, mkdirSync, writeFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, test } from "vitest"
import { opencodeBinaryIn } from "../../src/opencode/opencode-packages.ts"
import { readProbeSets } from "../../src/verify/probe-set.ts"
import { jsonError, runCli, useTmpDir } from "../helpers.ts"

describe("tool-tester verify on bad input", () => {
  test("a probe set that does not exist: exit 1 with the sets there are", async () => {
    const result = await runCli(["verify", "nameing", "--json"])
    expect(result.exitCode).toBe(1)
    expect(jsonError(result).code).toBe("USAGE")
    expect(jsonError(result).message).toMatch(
      /^no probe set named nameing \(did you mean naming\?\); the sets are: agent, .*naming, .*zod-types$/,
    )
    expect(result.stdout).toBe("")
  })

  test("a probe set named twice is read once: its checks would count twice", () => {
    expect(readProbeSets(["naming", "truncation", "naming"]).map((probe) => probe.set)).toEqual([
      "naming",
      "truncation",
    ])
  })

  test("no opencode at the --opencode path: exit 1, OPENCODE_NOT_FOUND", async () => {
    const missing = path.join(useTmpDir(), "opencode")
    const result = await runCli(["verify", "--opencode", missing, "--json"])
    expect(result.exitCode).toBe(1)
    expect(jsonError(result)).toEqual({
      code: "OPENCODE_NOT_FOUND",
      message: `No executable opencode binary at ${missing}. Check the --opencode path, or drop it to use an installed one.`,
    })
  })

  test("a folder given as --opencode: exit 1, OPENCODE_NOT_FOUND, with the binary in its bin/ when there is one", async () => {
    const folder = useTmpDir()
    const empty = await runCli(["verify", "--opencode", folder, "--json"])
    expect(empty.exitCode).toBe(1)
    expect(jsonError(empty)).toEqual({
      code: "OPENCODE_NOT_FOUND",
      message: `--opencode ${folder} is a folder, not an opencode binary: give the path of the opencode executable`,
    })
    const binary = opencodeBinaryIn(folder)
    mkdirSync(path.dirname(binary))
    writeFileSync(binary, "")
    chmodSync(binary, 0o755)
    const installed = await runCli(["verify", "--opencode", folder])
    expect(installed.stderr).toContain(
      `is a folder, not an opencode binary: did you mean ${binary}? [OPENCODE_NOT_FOUND]`,
    )
  })

  test("a binary that is not opencode (Node prints a version too): exit 1, named, nothing run", async () => {
    const result = await runCli(["verify", "naming", "--opencode", process.execPath])
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain(
      `${process.execPath} is not an opencode binary (its --help lists no \`opencode run\`). Pass opencode's binary with --opencode PATH.`,
    )
    expect(result.stderr).toContain("[OPENCODE_FAILED]")
    expect(result.stdout).toBe("")
  })

  test.skipIf(process.platform === "win32")(
    "a script that prints nothing (POSIX): exit 1, no version and no opencode run named",
    async () => {
      const fake = path.join(useTmpDir(), "opencode")
      writeFileSync(fake, "#!/bin/sh\nexit 0\n", { mode: 0o755 })
      const result = await runCli(["verify", "naming", "--opencode", fake, "--json"])
      expect(result.exitCode).toBe(1)
      expect(jsonError(result)).toEqual({
        code: "OPENCODE_FAILED",
        message: `${fake} is not an opencode binary (its --help lists no \`opencode run\`, its --version prints no version). Pass opencode's binary with --opencode PATH.`,
      })
    },
  )

  test("--concurrency 0: exit 1 with what it takes", async () => {
    const result = await runCli(["verify", "--concurrency", "0", "--json"])
    expect(result.exitCode).toBe(1)
    expect(jsonError(result)).toEqual({
      code: "USAGE",
      message: '--concurrency needs a whole number of at least 1, not "0"',
    })
  })

  test("--help lists every option and exits 9 and 10", async () => {
    const result = await runCli(["verify", "--help"])
    expect(result.exitCode).toBe(0)
    for (const flag of ["--opencode PATH", "--concurrency N", "--json", "-h, --help"])
      expect(result.stdout).toContain(flag)
    expect(result.stdout).toContain(
      "Exit 0 when all agree, 9 when something differs, 10 when a probe run could not be compared.",
    )
  })
})
