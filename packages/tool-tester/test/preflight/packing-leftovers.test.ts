// A packing script that leaves a process running (`prepack: "server &"`): npm pack exits, and the
// process holds the pipes preflight reads npm's output from. preflight used to wait for those pipes
// to close, as long as the process lived (300 s and counting); it now ends what the script left,
// says so in a SCRIPT_LEFT_RUNNING warning, and goes on.
import { readFileSync } from "node:fs"
import path from "node:path"
import { expect, onTestFinished, test } from "vitest"
import { useTmpDir } from "../helpers.ts"
import { isRunning, killProcess } from "../support/processes.ts"
import { codes, plainPlugin, preflightCli, writePackage } from "./preflight-packages.ts"

// The process the prepack leaves: writes its id, keeps npm's stdout and stderr, lives ten minutes.
const PREPACK = `const { spawn } = require("node:child_process")
const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 600000)"], { detached: true, stdio: "inherit" })
child.unref()
require("node:fs").writeFileSync(process.env.PREFLIGHT_TEST_PID_FILE, String(child.pid))
`

// Bounded well below the leftover's ten minutes: waiting for it fails the test.
test("preflight does not wait for what a prepack script leaves running: it ends it and warns", {
  timeout: 300_000,
}, async () => {
  const pidFile = path.join(useTmpDir(), "prepack.pid")
  const files = plainPlugin("opencode-preflight-leftover", {
    files: ["index.js"],
    scripts: { prepack: "node prepack.cjs" },
  })
  const directory = writePackage(useTmpDir(), { ...files, "prepack.cjs": PREPACK })
  const result = await preflightCli(directory, ["--engine", "node"], { PREFLIGHT_TEST_PID_FILE: pidFile })
  const pid = Number(readFileSync(pidFile, "utf8"))
  onTestFinished(() => killProcess(pid))
  expect(pid).toBeGreaterThan(0)
  expect(isRunning(pid)).toBe(false)
  expect(codes(result.report)).toEqual(["SCRIPT_LEFT_RUNNING"])
  const [finding] = result.report.findings
  expect(finding?.severity).toBe("warning")
  expect(finding?.message).toContain("npm pack left 1 process running")
  expect(result.exitCode, result.stderr).toBe(0)
})
