// A test's cleanup ends what it started by id, and an id read from a file or an output that was
// not complete yet is 0 (`Number("")`). kill(0) signals the sender's whole process group: with
// the vitest that runs the test, that is the test command and everything started beside it (seen:
// process-tree.test.ts's endMarked case read its orphan's id before the shell's output, failed its
// wait, and its cleanup's SIGKILL to 0 ended the whole `.ci/run` at once, without a word).
// killProcess and killGroup send nothing for such an id. process.kill is replaced here: nothing
// is really signalled.
import { afterEach, expect, test, vi } from "vitest"
import { killGroup, killProcess } from "./support/processes.ts"

afterEach(() => {
  vi.restoreAllMocks()
})

test("an id that is not a process (0, negative, NaN, missing) is never sent a signal", () => {
  const kill = vi.spyOn(process, "kill").mockImplementation(() => true)
  for (const id of [0, -1, -302, Number(""), Number("12\n34"), Number.NaN, 1.5, undefined]) {
    killProcess(id)
    killGroup(id)
  }
  expect(kill).not.toHaveBeenCalled()
})

test("a process id is sent SIGKILL, and its group the negative id (POSIX)", () => {
  const kill = vi.spyOn(process, "kill").mockImplementation(() => true)
  killProcess(4321)
  killGroup(4321)
  expect(kill.mock.calls).toEqual(
    process.platform === "win32"
      ? [[4321, "SIGKILL"]]
      : [
          [4321, "SIGKILL"],
          [-4321, "SIGKILL"],
        ],
  )
})

test("a process already gone is not an error", () => {
  vi.spyOn(process, "kill").mockImplementation(() => {
    throw Object.assign(new Error("kill ESRCH"), { code: "ESRCH" })
  })
  expect(() => killProcess(4321)).not.toThrow()
  expect(() => killGroup(4321)).not.toThrow()
})
