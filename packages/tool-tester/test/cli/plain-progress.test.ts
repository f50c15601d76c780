// The plain progress lines of a stderr that is not a terminal (a CI log, a pipe), as e2e, eval,
// preflight and verify write them through interruptible(): what the drawn line would say, once the
// run has lasted 10 s and then every 10 s, on a fake clock.
import { afterEach, beforeEach, expect, test, vi } from "vitest"
import type { CliIO } from "../../src/cli/_command.ts"
import { interruptible } from "../../src/cli/interruptible.ts"
import { plainProgress } from "../../src/cli/plain-progress.ts"

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] })
})
afterEach(() => {
  vi.useRealTimers()
})

/** A CliIO whose stderr is not a terminal, keeping what is written on stdout and stderr. */
function plainIO(env: Record<string, string | undefined> = {}) {
  const written = { stdout: "", stderr: "" }
  const io: CliIO = {
    cwd: "/",
    env,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    write: (text) => {
      written.stdout += text
    },
    writeError: (text) => {
      written.stderr += text
    },
    chdir: () => {},
    onInterrupt: () => () => {},
  }
  return { io, written }
}

test("the phase and its seconds, the clock starting again at each phase; nothing once done", () => {
  const { io, written } = plainIO()
  const progress = plainProgress(io)
  progress.phase("starting opencode")
  vi.advanceTimersByTime(4_000)
  progress.phase("running opencode")
  vi.advanceTimersByTime(16_000)
  progress.phase("3 trials done (last: weather on mock/model)")
  vi.advanceTimersByTime(11_000)
  progress.done()
  vi.advanceTimersByTime(60_000)
  expect(written.stderr).toBe(
    [
      "tool-tester: running opencode... 6s\n",
      "tool-tester: running opencode... 16s\n",
      "tool-tester: 3 trials done (last: weather on mock/model)... 10s\n",
    ].join(""),
  )
})

test("a run through interruptible that ends within 10 s writes nothing; one that lasts, a line every 10 s", async () => {
  const { io, written } = plainIO()
  const short = await interruptible(io, true, "unused", async ({ progress }) => {
    progress.phase("running opencode")
    await vi.advanceTimersByTimeAsync(9_000)
    return "short"
  })
  expect(short).toEqual({ value: "short" })
  expect(written.stderr).toBe("")
  await interruptible(io, true, "unused", async ({ progress }) => {
    progress.phase("running opencode")
    await vi.advanceTimersByTimeAsync(35_000)
  })
  await vi.advanceTimersByTimeAsync(60_000)
  expect(written.stderr).toBe(
    ["10s", "20s", "30s"].map((seconds) => `tool-tester: running opencode... ${seconds}\n`).join(""),
  )
  expect(written.stdout).toBe("")
})

test("TOOL_TESTER_PROGRESS_MS sets how often, 0 writes nothing, anything else is a usage error", async () => {
  const often = plainIO({ TOOL_TESTER_PROGRESS_MS: "3000" })
  const progress = plainProgress(often.io)
  progress.phase("packing the package with npm pack")
  vi.advanceTimersByTime(7_000)
  progress.done()
  expect(often.written.stderr).toBe(
    "tool-tester: packing the package with npm pack... 3s\ntool-tester: packing the package with npm pack... 6s\n",
  )
  const never = plainIO({ TOOL_TESTER_PROGRESS_MS: "0" })
  await interruptible(never.io, false, "unused", async ({ progress }) => {
    progress.phase("running opencode")
    await vi.advanceTimersByTimeAsync(60_000)
  })
  expect(never.written.stderr).toBe("")
  expect(() => plainProgress(plainIO({ TOOL_TESTER_PROGRESS_MS: "10s" }).io)).toThrow(
    'TOOL_TESTER_PROGRESS_MS is "10s": give how often tool-tester prints its progress off a terminal in whole milliseconds',
  )
})
