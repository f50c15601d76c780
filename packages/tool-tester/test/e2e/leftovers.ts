// What an e2e run may leave behind: folders in its temp parent, and processes whose TMPDIR is
// inside it (the sandbox's). Each test file gives runE2E its own temp parent to look at.

import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { leftRunning } from "../support/left-running.ts"

export function makeTempParent(): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), "tool-tester-e2e-test-"))
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) }
}

export function leftoverFolders(parent: string): string[] {
  return readdirSync(parent)
}

/**
 * Processes whose TMPDIR is inside `parent` (every process opencode starts in a sandbox inherits
 * its TMPDIR), found as the shared cleanup finds them: /proc on Linux, `ps` on macOS; on Windows,
 * every process below this test's (left-running.ts).
 */
export function leftoverProcesses(parent: string): number[] {
  return leftRunning([`TMPDIR=${parent}`])
}
