// The node engine runs a tool in a thread of the CLI's own process, so a child process the tool
// starts and does not wait for is a child of the CLI: this ends them (and theirs) when the CLI
// is done, as the bun engine does by ending its process group. Linux only (it reads /proc);
// elsewhere nothing is done, and docs/cli.md says so.
import { readdirSync, readFileSync } from "node:fs"

/** Sends SIGKILL to every process below `root`; returns their ids. */
export function killDescendants(root: number): number[] {
  if (process.platform !== "linux") return []
  const children = new Map<number, number[]>()
  for (const name of readdirSync("/proc")) {
    const pid = Number(name)
    if (!Number.isInteger(pid)) continue
    const parent = parentOf(pid)
    if (parent === undefined) continue
    const list = children.get(parent) ?? []
    list.push(pid)
    children.set(parent, list)
  }
  const found: number[] = []
  const queue = [...(children.get(root) ?? [])]
  while (queue.length > 0) {
    const pid = queue.shift()!
    found.push(pid)
    queue.push(...(children.get(pid) ?? []))
  }
  for (const pid of found) {
    try {
      process.kill(pid, "SIGKILL")
    } catch {
      // Gone already.
    }
  }
  return found
}

function parentOf(pid: number): number | undefined {
  try {
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ")".
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return Number(fields[1])
  } catch {
    return undefined
  }
}
