// A control group per recorded run: every process a run starts is in its group from its first
// instruction, and stays there when its parent ends first (an engine's children, a detached
// server), so the group's CPU time is the run's whole, exactly, with what process accounting can
// only count apart ("outside a test file") and nothing of what ran beside it. Linux only: a
// cgroup v2 hierarchy (cpu.stat) or v1's cpuacct controller (cpuacct.usage), as root.
import { mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs"
import path from "node:path"

/**
 * A new group named `name` in the first hierarchy found that counts CPU time, or undefined when
 * there is none this process can write (not root, no cgroup file system).
 */
export function createGroup(name, mounts = readMounts()) {
  for (const { kind, folder } of hierarchies(mounts)) {
    const group = path.join(folder, name)
    try {
      mkdirSync(group)
    } catch {
      continue
    }
    return { kind, folder: group, parent: folder }
  }
  return undefined
}

/** Moves process `pid` into `group` (its children from now on are born there). */
export function enter(group, pid = process.pid) {
  writeFileSync(path.join(group.folder, "cgroup.procs"), String(pid))
}

/** Moves process `pid` back to the group's parent. */
export function leave(group, pid = process.pid) {
  writeFileSync(path.join(group.parent, "cgroup.procs"), String(pid))
}

/** CPU seconds (user and system) used so far by every process that was ever in `group`. */
export function cpuSeconds(group) {
  if (group.kind === "v2") return parseCpuStat(readFileSync(path.join(group.folder, "cpu.stat"), "utf8"))
  return Number(readFileSync(path.join(group.folder, "cpuacct.usage"), "utf8").trim()) / 1e9
}

/** Removes `group` once it is empty; a group a process still holds is left (the kernel keeps it). */
export function removeGroup(group) {
  try {
    rmdirSync(group.folder)
  } catch {}
}

/** `usage_usec` of a cgroup v2 `cpu.stat`, in seconds. */
export function parseCpuStat(text) {
  const line = text.split("\n").find((entry) => entry.startsWith("usage_usec "))
  if (line === undefined) throw new Error("cpu.stat has no usage_usec line")
  return Number(line.slice("usage_usec ".length)) / 1e6
}

/**
 * The hierarchies that count CPU time, from /proc/mounts' lines: cgroup v2 mounts first (each
 * group has cpu.stat), then v1 mounts with the cpuacct controller.
 */
export function hierarchies(mounts) {
  const found = []
  for (const line of mounts.split("\n")) {
    const [, folder, type, options = ""] = line.split(" ")
    if (type === "cgroup2") found.push({ kind: "v2", folder })
    else if (type === "cgroup" && options.split(",").includes("cpuacct")) found.push({ kind: "v1", folder })
  }
  return found.sort((a, b) => (a.kind === b.kind ? 0 : a.kind === "v2" ? -1 : 1))
}

function readMounts() {
  try {
    return readFileSync("/proc/mounts", "utf8")
  } catch {
    return ""
  }
}
