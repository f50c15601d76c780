// What an e2e run may leave behind: folders in its temp parent, and processes whose TMPDIR is
// inside it (the sandbox's). Each test file gives runE2E its own temp parent to look at.

import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { leftRunning } from "../support/left-running.ts"

/**
 * A temp parent, made when a test first asks for its path: a file whose tests are all filtered out
 * (`-t`) runs no afterAll, and must then have made nothing.
 */
export function makeTempParent(): { readonly path: string; remove(): void } {
  let made: string | undefined
  return {
    get path() {
      made ??= mkdtempSync(join(tmpdir(), "tool-tester-e2e-test-"))
      return made
    },
    remove: () => {
      if (made !== undefined) rmSync(made, { recursive: true, force: true })
    },
  }
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
