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
