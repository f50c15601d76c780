import { readFileSync } from "node:fs"

/**
 * Whether a process still runs. On Linux a zombie (ended, not yet reaped by its new parent) does
 * not count: it runs nothing. Elsewhere, whether it can be signalled.
 */
export function isRunning(pid: number): boolean {
  if (process.platform === "linux") {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
      return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z"
    } catch {
      return false
    }
  }
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/**
 * Sends SIGKILL to the process `pid`, if it is one: a test's cleanup of what it started. An id
 * that is not a positive integer is ignored, never sent: kill(0) signals the sender's whole
 * process group (with the vitest that runs the test, the test command and everything started
 * beside it), and a negative id a whole group; an id read from a file or an output that was not
 * complete yet is 0 (`Number("")`). A process already gone is not an error.
 */
export function killProcess(pid: number | undefined): void {
  if (!isProcessId(pid)) return
  try {
    process.kill(pid, "SIGKILL")
  } catch {}
}

/** Sends SIGKILL to the process group `id` leads (POSIX), if `id` is a process id (see killProcess). */
export function killGroup(id: number | undefined): void {
  if (!isProcessId(id) || process.platform === "win32") return
  try {
    process.kill(-id, "SIGKILL")
  } catch {}
}

function isProcessId(pid: number | undefined): pid is number {
  return Number.isInteger(pid) && pid! > 0
}
