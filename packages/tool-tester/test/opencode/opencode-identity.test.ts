// Telling opencode from other binaries before verify runs anything: a version is no proof (Node
// prints one), `--help` naming `opencode run` is; a binary that does not answer is said to be silent.
import { readFileSync, writeFileSync } from "node:fs"
import path from "node:path"
import { expect, onTestFinished, test, vi } from "vitest"
import { opencodeIdentity } from "../../src/opencode/opencode-identity.ts"
import { opencode, useTmpDir } from "../helpers.ts"
import { isRunning, killProcess } from "../support/processes.ts"

test("Node is not opencode, though it prints a version", async () => {
  expect(await opencodeIdentity(process.execPath)).toBe("other")
})

test.skipIf(!opencode.binary)(
  `the installed opencode is opencode ${opencode.reason ?? ""}`,
  { timeout: 180_000 },
  async () => {
    expect(await opencodeIdentity(opencode.binary!)).toBe("opencode")
  },
)

test.skipIf(process.platform === "win32")(
  "a binary that does not answer within the bound is silent, and is ended with what it started (a shell script: POSIX)",
  { timeout: 120_000 },
  async () => {
    const folder = useTmpDir()
    const script = path.join(folder, "opencode")
    const pids = path.join(folder, "pids")
    // A child in the background and one in the foreground: killing the shell alone left both.
    writeFileSync(script, `#!/bin/sh\nsleep 600 &\necho $! > '${pids}'\nsleep 600\n`, { mode: 0o755 })
    const started: number[] = []
    onTestFinished(() => started.forEach(killProcess))
    expect(await opencodeIdentity(script, 1_000)).toBe("silent")
    started.push(Number(readFileSync(pids, "utf8")))
    await vi.waitFor(() => expect(started.filter(isRunning)).toEqual([]), { timeout: 60_000, interval: 100 })
  },
)
