// A prepack (npm pack) or, with --run-scripts, a postinstall (npm install) that never ends: preflight
// used to wait for it for ever, until Ctrl-C. At --npm-timeout it now ends npm and everything the
// script started, reports PACK_TIMEOUT or INSTALL_TIMEOUT (an error: exit 3) naming the step, the
// bound and what to do, and removes its temporary folder (docs/cli.md#preflight).
import { existsSync, readdirSync, readFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, onTestFinished, test } from "vitest"
import { jsonError, useTmpDir } from "../helpers.ts"
import { isRunning, killProcess } from "../support/processes.ts"
import { hangingScriptPlugin, preflightCli, writePackage } from "./preflight-packages.ts"

// Long enough for npm to reach the script on a loaded machine (the test needs the script's id),
// short enough not to hold the suite: the run waits for it, mostly idle.
const NPM_TIMEOUT_MS = 20_000

const cases = [
  {
    step: "npm pack",
    script: "prepack",
    flags: [],
    code: "PACK_TIMEOUT",
    message: `npm pack did not finish within ${NPM_TIMEOUT_MS} ms: preflight ended it and all it started; look at the package's prepack and prepare scripts (one that never ends, such as a watcher, a server or a prompt, holds npm publish too), or give a slower build more time with --npm-timeout MS`,
  },
  {
    step: "npm install",
    script: "postinstall",
    flags: ["--run-scripts"],
    code: "INSTALL_TIMEOUT",
    message: `npm install of the tarball did not finish within ${NPM_TIMEOUT_MS} ms: preflight ended it and all it started; give a slow registry or many dependencies more time with --npm-timeout MS, or look at the install scripts of the package and its dependencies (preinstall, install, postinstall: --run-scripts runs them), one of which may never end`,
  },
]

describe("a script that never ends, at --npm-timeout", { timeout: 180_000 }, () => {
  test.each(cases)("in $step: $code (exit 3), the script ended, no temporary folder left", async (item) => {
    const temporary = useTmpDir("preflight-npm-timeout-")
    const pidFile = path.join(useTmpDir(), "script.pid")
    const directory = writePackage(
      useTmpDir(),
      hangingScriptPlugin(`opencode-preflight-${item.script}-hangs`, item.script),
    )
    const result = await preflightCli(
      directory,
      ["--engine", "node", "--npm-timeout", String(NPM_TIMEOUT_MS), ...item.flags],
      { PREFLIGHT_TEST_PID_FILE: pidFile, TMPDIR: temporary, TEMP: temporary, TMP: temporary },
    )
    const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, "utf8")) : undefined
    onTestFinished(() => killProcess(pid))
    expect(result.exitCode, result.stderr).toBe(3)
    const finding = result.report.findings.find((each) => each.code === item.code)
    expect(finding).toMatchObject({ severity: "error", file: path.join(directory, "package.json") })
    // What npm printed last says where it stood: in the script, whose banner it printed first.
    expect(finding?.message).toBe(
      `${item.message} (it printed last: > opencode-preflight-${item.script}-hangs@1.0.0 ${item.script} / > node hang.cjs)`,
    )
    expect(jsonError(result)).toEqual({ code: item.code, message: finding?.message })
    expect(pid, "the script never started").toBeGreaterThan(0)
    expect(isRunning(pid!)).toBe(false)
    expect(readdirSync(temporary).filter((name) => name.startsWith("tool-tester-"))).toEqual([])
  })
})
