import { processesWithEnvironment } from "../../src/engine/process-tree.ts"

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
 * processes: /proc on Linux, `ps` on macOS. Throws where they cannot be seen rather than say none.
 */
export function serversIn(directory: string): number[] {
  if (serversHidden !== undefined) throw new Error(serversHidden)
  return processesWithEnvironment([`OPENCODE_SERVER_USERNAME=opencode`, `PWD=${directory}`], { exact: true })
}
