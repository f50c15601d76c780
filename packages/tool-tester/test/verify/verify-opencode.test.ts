// `tool-tester verify` against the opencode the repository installs (the version tool-tester
// models): every check of the probe sets run agrees, and it exits 0. Three sets that cover every behaviour:
// discovery, names, order, schemas, results, truncation, rerouting and plugin hooks; all sets take minutes.
import { mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { expect, onTestFinished, test } from "vitest"
import type { VerifyReport } from "../../src/verify/verify-report.ts"
import { opencode, runCli } from "../helpers.ts"

test.skipIf(!opencode.binary)(
  `verify agrees everywhere with the installed opencode and exits 0 ${opencode.reason ?? ""}`,
  // opencode starts once per probe run (10 here): minutes at load average 20 on 2 cores.
  { timeout: 900_000 },
  async () => {
    // Another "opencode" first on PATH (this Node, which cannot run the bun engine): tool-tester's
    // side must still run the tools in the opencode verified, not in the engine other commands pick.
    const decoy = mkdtempSync(path.join(tmpdir(), "verify-decoy-"))
    onTestFinished(() => rmSync(decoy, { recursive: true, force: true }))
    symlinkSync(process.execPath, path.join(decoy, process.platform === "win32" ? "opencode.exe" : "opencode"))
    const env = { PATH: `${decoy}${path.delimiter}${process.env.PATH ?? ""}` }
    const result = await runCli(
      ["verify", "naming", "truncation", "session-hooks", "--opencode", opencode.binary!, "--json"],
      { env },
    )
    const report = JSON.parse(result.stdout) as VerifyReport
    expect(report.differences).toEqual([])
    expect(result.exitCode).toBe(0)
    expect(report.agree).toBe(true)
    // The binary as found: links resolved (the workspace's is a pnpm link), so compared by real path.
    expect({ ...report.opencode, binary: realpathSync(report.opencode.binary) }).toEqual({
      binary: realpathSync(opencode.binary!),
      version: report.modelledVersion,
    })
    const checked = report.behaviours.filter((entry) => entry.agree > 0).map((entry) => entry.behaviour)
    expect(checked).toEqual([
      "discovery",
      "naming",
      "order",
      "schemas",
      "results",
      "truncation",
      "rerouting",
      "plugin hooks",
    ])
  },
)
