// When `npm pack` fails, PACK_FAILED says why: what the failing script printed (a prepack's tsc
// errors), not the end of the JSON document `npm pack --json` prints. And preflight run by the
// package's own prepack (which preflight's npm pack runs) stops at once instead of packing again
// without end: the script below stops itself after two levels, so the test ends either way.
import { readFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, test } from "vitest"
import { jsonError, packageRoot, runCli, useTmpDir } from "../helpers.ts"
import { json, plainPlugin, preflightCli, writePackage } from "./preflight-packages.ts"

describe("preflight when the package cannot be packed", { timeout: 300_000 }, () => {
  test("a package.json that is not JSON: a usage error (exit 1) that says where it breaks", async () => {
    const directory = writePackage(useTmpDir(), { "package.json": '{ "name": "x", ' })
    const result = await runCli(["preflight", directory, "--json"])
    expect(result.exitCode).toBe(1)
    expect(jsonError(result)).toEqual({
      code: "USAGE",
      message: expect.stringMatching(
        /package\.json is not JSON \(.*position 15.*\): fix it, npm cannot pack the package$/,
      ),
    })
  })

  test("a failing prepack: PACK_FAILED with what the script printed, on stdout and stderr, exit 3", async () => {
    const files = plainPlugin("opencode-preflight-prepack-fails")
    const prepack =
      "echo 'src/index.ts(3,7): error TS2322: Type number is not assignable to type string.'; echo 'build failed' >&2; exit 2"
    const manifest = { ...JSON.parse(files["package.json"]!), scripts: { prepack } }
    const directory = writePackage(useTmpDir(), { ...files, "package.json": json(manifest) })
    const { exitCode, report } = await preflightCli(directory)
    expect(exitCode).toBe(3)
    expect(report.findings).toEqual([
      {
        code: "PACK_FAILED",
        severity: "error",
        file: path.join(directory, "package.json"),
        message:
          "npm pack failed (exit 2): src/index.ts(3,7): error TS2322: Type number is not assignable to type string. / build failed; fix it: npm publish runs the same pack",
      },
    ])
  })

  test("preflight run by the package's prepack refuses at once (USAGE), and the outer one reports it as PACK_FAILED", async () => {
    const directory = useTmpDir()
    const levels = path.join(directory, "levels.log")
    const bin = path.join(packageRoot, "bin.js")
    const prepack = `echo level \${LEVEL:-0} >> ${JSON.stringify(levels)}; if [ "\${LEVEL:-0}" -lt 2 ]; then LEVEL=$((\${LEVEL:-0}+1)) ${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} preflight; fi`
    const files = plainPlugin("opencode-preflight-in-prepack")
    const manifest = { ...JSON.parse(files["package.json"]!), scripts: { prepack } }
    writePackage(directory, { ...files, "package.json": json(manifest) })
    const { exitCode, report } = await preflightCli(directory)
    expect(exitCode).toBe(3)
    expect(report.findings).toEqual([
      expect.objectContaining({
        code: "PACK_FAILED",
        message: expect.stringContaining(
          "tool-tester preflight runs inside the npm pack of another preflight (a prepack or prepare script of the package runs it)",
        ),
      }),
    ])
    expect(readFileSync(levels, "utf8")).toBe("level 0\n")
  })
})
