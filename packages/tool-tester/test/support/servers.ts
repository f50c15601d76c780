import { processesWithEnvironment } from "../../src/engine/process-tree.ts"

/**
 * The `opencode serve` processes started for `directory` (the server behind plugins' input.client
 * runs with PWD set to it and opencode's basic-auth user), found as the shared cleanup finds
 * processes: /proc on Linux, `ps` on macOS.
 */
export function serversIn(directory: string): number[] {
  return processesWithEnvironment([`OPENCODE_SERVER_USERNAME=opencode`, `PWD=${directory}`], { exact: true })
}
