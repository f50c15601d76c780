import { readdirSync, readFileSync, readlinkSync } from "node:fs"

/**
 * The `opencode serve` processes running in `directory` (Linux, from /proc): what the server behind
 * plugins' input.client leaves running, if anything.
 */
export function serversIn(directory: string): number[] {
  const found: number[] = []
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const command = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0")
      if (command[1] === "serve" && readlinkSync(`/proc/${entry}/cwd`) === directory) found.push(Number(entry))
    } catch {}
  }
  return found
}
