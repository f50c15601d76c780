// What an e2e run may leave behind: folders in its temp parent, and processes (Linux) whose
// working folder is inside it. Each test file gives runE2E its own temp parent to look at.

import { mkdtempSync, readdirSync, readlinkSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

export function makeTempParent(): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), "tool-tester-e2e-test-"))
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) }
}

export function leftoverFolders(parent: string): string[] {
  return readdirSync(parent)
}

/** Process ids whose working folder is inside `parent` (always empty off Linux). */
export function leftoverProcesses(parent: string): number[] {
  if (process.platform !== "linux") return []
  const found: number[] = []
  for (const name of readdirSync("/proc")) {
    const pid = Number(name)
    if (!Number.isInteger(pid)) continue
    try {
      if (readlinkSync(`/proc/${pid}/cwd`).startsWith(parent)) found.push(pid)
    } catch {
      // Gone, or not ours to read.
    }
  }
  return found
}
