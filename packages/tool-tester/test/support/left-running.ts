import type { ProcessTableSource } from "../../src/runtime/process-tree.ts"
import { descendantsOf, processesWithEnvironment, readTable } from "../../src/runtime/process-tree.ts"

/**
 * What a run left running, looked for on every OS the way the shared cleanup (process-tree.ts)
 * ends it: on Linux and macOS, the processes (but this one) whose environment holds every one of
 * `entries` (/proc, `ps -E`); on Windows, where no process can read another's environment, every
 * process below this test's process, since Windows keeps a dead parent's id in its children (what
 * `taskkill /T` follows). So on Windows, call it when the test itself has nothing left running: a
 * vitest worker runs one test file at a time, and the tests that call it are not concurrent.
 */
export function leftRunning(
  entries: readonly string[],
  options: { exact?: boolean; platform?: NodeJS.Platform; source?: ProcessTableSource } = {},
): number[] {
  const platform = options.platform ?? process.platform
  if (platform !== "win32") return processesWithEnvironment(entries, options)
  return descendantsOf(process.pid, readTable({ source: options.source ?? "powershell", platform }))
}
