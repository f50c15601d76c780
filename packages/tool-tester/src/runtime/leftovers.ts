// What a process must not leave behind when it ends, however it ends: the processes it started
// (a tree, a process group, every process carrying a mark) and its temporary files and folders.
// The process itself ends them when it can (reaper.ts: at exit, or in a signal handler); its
// reaper, a watchdog process, ends them when it cannot (SIGKILL, a crash, a busy main thread).
// Both call endLeftovers, with the ways of process-tree.ts: the same on Linux, macOS and Windows.
import { rmSync } from "node:fs"
import { endMarked, endProcessGroup, endProcessTree } from "./process-tree.ts"

export type Leftovers = {
  /** A process still running: it and every process it started are ended (endProcessTree). */
  tree?: number
  /** A process group (POSIX; the id of the process that leads it): every member is ended. */
  group?: number
  /** Every process whose environment has ENGINE_MARK=`mark` is ended (endMarked). */
  mark?: string
  /** Files and folders removed, with what they hold. */
  paths?: string[]
}

/** Ends the processes, then removes the paths (a process still writing there could recreate them). Never throws. */
export function endLeftovers(leftovers: Leftovers): void {
  try {
    if (leftovers.tree !== undefined) endProcessTree(leftovers.tree)
    if (leftovers.group !== undefined) endProcessGroup(leftovers.group)
    if (leftovers.mark !== undefined) endMarked(leftovers.mark)
  } catch {}
  for (const target of leftovers.paths ?? []) {
    try {
      // A process that was just ended may still hold a file open on Windows: a few retries.
      rmSync(target, { recursive: true, force: true, maxRetries: 3 })
    } catch {}
  }
}
