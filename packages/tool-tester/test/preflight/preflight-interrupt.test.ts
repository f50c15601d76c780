// Ctrl-C while npm runs a package script that never ends (a prepack during the pack, a postinstall
// with --run-scripts): preflight stops npm and the script at once, removes its temporary folder,
// reports INTERRUPTED and exits 130 (docs/cli.md#preflight). It used to wait for npm, for ever:
// the signal was only looked at between steps, and a second one exited leaving npm, the script
// and the folder behind. Spawned from the built bin: only the bin shows signals and what is left.

import type { ChildProcessWithoutNullStreams } from "node:child_process"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { describe, expect, onTestFinished, test } from "vitest"
import { runCli, useTmpDir } from "../helpers.ts"
import { isRunning, killProcess } from "../support/processes.ts"
import { hangingScriptPlugin, plainPlugin, writePackage } from "./preflight-packages.ts"

const cases = [
  { when: "the prepack of npm pack", script: "prepack", flags: [] },
  { when: "a postinstall with --run-scripts", script: "postinstall", flags: ["--run-scripts"] },
]

describe.skipIf(process.platform === "win32")("Ctrl-C during a script that hangs", { timeout: 180_000 }, () => {
  test.each(cases)("in $when: npm and the script are ended, nothing is left", async ({ script, flags }) => {
    const directory = writePackage(useTmpDir(), hangingScriptPlugin("opencode-preflight-interrupt", script))
    const before = readdirSync(directory).sort()
    const { exitCode, stderr, pid, temporary } = await interruptedPreflight(directory, flags, 120_000)
    expect(exitCode, stderr).toBe(130)
    expect(JSON.parse(stderr.trim()).error.code).toBe("INTERRUPTED")
    await expect.poll(() => isRunning(pid), { timeout: 60_000, interval: 100 }).toBe(false)
    expect(readdirSync(temporary).filter((name) => name.startsWith("tool-tester-"))).toEqual([])
    expect(readdirSync(directory).sort()).toEqual(before)
  })
})

// The plugin's init, or its tool's call, that never ends: the engine is ended at once, where it
// used to run to the load bound (60 s) or --timeout, and the run then reported its findings and
// exit 3 as if nothing had been asked.
const HANGING_PLUGINS = [
  {
    when: "the plugin's init",
    flags: [],
    index: `import { writeFileSync } from "node:fs"
export const Hangs = async () => {
  writeFileSync(process.env.PREFLIGHT_TEST_PID_FILE, String(process.pid))
  await new Promise(() => {})
}
`,
  },
  {
    when: "the smoke call of its tool",
    flags: ["--timeout", "600000"],
    index: `import { writeFileSync } from "node:fs"
export const Hangs = async () => ({
  tool: {
    wait: {
      description: "Waits",
      args: {},
      execute: async () => {
        writeFileSync(process.env.PREFLIGHT_TEST_PID_FILE, String(process.pid))
        await new Promise(() => {})
      },
    },
  },
})
`,
  },
]

describe.skipIf(process.platform === "win32")(
  "Ctrl-C while the engine loads or calls the plugin",
  { timeout: 90_000 },
  () => {
    test.each(HANGING_PLUGINS)("in $when: INTERRUPTED and exit 130 at once", async ({ index, flags }) => {
      const directory = writePackage(useTmpDir(), {
        ...plainPlugin("opencode-preflight-interrupt-engine"),
        "index.js": index,
      })
      // Before, the init ran to the 60 s load bound and the call to --timeout (here past the test's
      // bound), then the report came with exit 3: exit 130 with INTERRUPTED is the stop at once.
      const { exitCode, stdout, stderr, temporary } = await interruptedPreflight(directory, flags, 40_000)
      expect(exitCode, stderr).toBe(130)
      expect(stdout).toBe("")
      expect(JSON.parse(stderr.trim()).error.code).toBe("INTERRUPTED")
      expect(readdirSync(temporary).filter((name) => name.startsWith("tool-tester-"))).toEqual([])
    })
  },
)

/**
 * `preflight DIR --json --engine node FLAGS` from the built bin, with TMPDIR its own: once the
 * process the package runs has written its id to the pid file, Ctrl-C. Its result, that id, and
 * the temporary folder.
 */
async function interruptedPreflight(directory: string, flags: readonly string[], waitMs: number) {
  const temporary = useTmpDir("preflight-interrupt-")
  const pidFile = path.join(useTmpDir(), "started.pid")
  let child: ChildProcessWithoutNullStreams | undefined
  const result = runCli(["preflight", directory, "--json", "--engine", "node", ...flags], {
    env: {
      npm_config_cache: process.env["npm_config_cache"] ?? path.join(os.homedir(), ".npm"),
      npm_config_update_notifier: "false",
      PREFLIGHT_TEST_PID_FILE: pidFile,
      TMPDIR: temporary,
      TEMP: temporary,
      TMP: temporary,
    },
    onSpawn: (spawned) => (child = spawned),
  })
  await expect.poll(() => existsSync(pidFile) && readFileSync(pidFile, "utf8") !== "", { timeout: waitMs }).toBe(true)
  const pid = Number(readFileSync(pidFile, "utf8"))
  onTestFinished(() => killProcess(pid))
  child!.kill("SIGINT")
  return { ...(await result), pid, temporary }
}
