import { expect, test } from "vitest"
import type { CliIO } from "../../src/cli/_command.ts"
import { interruptible } from "../../src/cli/interruptible.ts"

// The block e2e, eval, preflight and verify share: a signal aborts the work, which ends with one
// INTERRUPTED line and the signal's exit status; other failures pass through; the listener goes.
function fakeIO() {
  const io = {
    stderr: "",
    handler: undefined as ((signal: NodeJS.Signals) => void) | undefined,
    listening: false,
  }
  const cli: CliIO = {
    cwd: "/",
    env: {},
    stdoutIsTTY: false,
    stderrIsTTY: false,
    write: () => {},
    writeError: (text) => {
      io.stderr += text
    },
    chdir: () => {},
    onInterrupt: (handler) => {
      io.handler = handler
      io.listening = true
      return () => {
        io.listening = false
      }
    },
  }
  return { io, cli }
}

test("a signal aborts the work: one INTERRUPTED line, exit 128 + the signal's number, no listener left", async () => {
  const { io, cli } = fakeIO()
  const outcome = await interruptible(cli, true, "interrupted: stopped", ({ signal }) => {
    io.handler?.("SIGTERM")
    expect(signal.aborted).toBe(true)
    return Promise.reject(new Error("aborted"))
  })
  expect(outcome).toEqual({ exitCode: 143 })
  expect(JSON.parse(io.stderr)).toEqual({ error: { code: "INTERRUPTED", message: "interrupted: stopped" } })
  expect(io.listening).toBe(false)
})

test("work that finishes gives its value; a failure without a signal is thrown as it is", async () => {
  const { io, cli } = fakeIO()
  expect(await interruptible(cli, false, "unused", async () => 42)).toEqual({ value: 42 })
  const failure = new Error("opencode failed")
  await expect(interruptible(cli, false, "unused", () => Promise.reject(failure))).rejects.toBe(failure)
  expect(io.stderr).toBe("")
  expect(io.listening).toBe(false)
})
