// The "nothing left running" checks of the e2e and eval tests look on every OS (issue 33): by
// environment where it can be read (Linux, macOS), and on Windows, where it cannot, at everything
// below the test's process, which is where Windows leaves what a run started (a dead parent's id
// stays in its children). Before, the check found nothing on Windows and passed without looking.
import { spawn } from "node:child_process"
import { describe, expect, test } from "vitest"
import { isRunning } from "./support/processes.ts"
import { leftRunning } from "./support/left-running.ts"

function startSleeper(env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 600000)"], {
    env: { ...process.env, ...env },
    stdio: "ignore",
  })
  const exited = new Promise((resolve) => child.once("exit", resolve))
  return {
    pid: child.pid!,
    async end() {
      child.kill("SIGKILL")
      await exited
    },
  }
}

// This OS's process table, read as Windows' would be (parent ids), from wherever this OS keeps it.
const table = process.platform === "linux" ? "proc" : process.platform === "win32" ? "powershell" : "ps"

describe("the leftover check", { timeout: 60_000 }, () => {
  test("on Windows, sees a process this one started, whatever its environment", async () => {
    const sleeper = startSleeper()
    try {
      expect(leftRunning(["NOT_IN_ANY_ENVIRONMENT=1"], { platform: "win32", source: table })).toContain(sleeper.pid)
    } finally {
      await sleeper.end()
    }
    expect(isRunning(sleeper.pid)).toBe(false)
    expect(leftRunning(["NOT_IN_ANY_ENVIRONMENT=1"], { platform: "win32", source: table })).not.toContain(sleeper.pid)
  })

  test.skipIf(process.platform === "win32")(
    "on Linux and macOS, sees a process by its environment, and not once it has ended (Windows shows no environment)",
    async () => {
      const mark = `left-running-${Math.random().toString(36).slice(2)}`
      const sleeper = startSleeper({ LEFT_RUNNING_MARK: mark })
      try {
        await expect
          .poll(() => leftRunning([`LEFT_RUNNING_MARK=${mark}`], { exact: true }), { timeout: 30_000 })
          .toEqual([sleeper.pid])
      } finally {
        await sleeper.end()
      }
      expect(leftRunning([`LEFT_RUNNING_MARK=${mark}`], { exact: true })).toEqual([])
    },
  )
})
