import { processesWithEnvironment, readTable } from "../../src/runtime/process-tree.ts"

/**
 * Why the servers of a folder cannot be counted on this OS (Windows shows no process's environment
 * to another), or undefined: tests that count them skip with it.
 */
export const serversHidden: string | undefined =
  process.platform === "win32"
    ? "Windows: a server is found by its environment, which Windows does not show"
    : undefined

/**
 * The `opencode serve` processes started for `directory` (the server behind plugins' input.client
 * runs with PWD set to it and opencode's basic-auth user), found as the shared cleanup finds
 * processes: /proc on Linux, `ps` on macOS. A process the server started inherits that environment
 * (a fresh clone's CI once saw one beside the server while it was up), so only the processes whose
 * parent is not among them count, and only those still running when the table is read: one per server. Throws where they cannot be seen rather than say none.
 */
export function serversIn(directory: string): number[] {
  if (serversHidden !== undefined) throw new Error(serversHidden)
  const found = processesWithEnvironment([`OPENCODE_SERVER_USERNAME=opencode`, `PWD=${directory}`], { exact: true })
  if (found.length < 2) return found
  const parentOf = new Map(readTable().map((entry) => [entry.pid, entry.ppid]))
  // One that ended between the two reads (absent from the table) was such a short-lived child.
  return found.filter((pid) => parentOf.has(pid) && !found.includes(parentOf.get(pid)!))
}
