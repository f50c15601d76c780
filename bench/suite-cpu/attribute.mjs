// Gives each process a recorded run started to the test file it ran for: the processes come from
// Linux process accounting (dump-acct), the files from vitest's JSON report, and each vitest
// worker's own record says which files it ran (record.mjs). A process goes to the file of the
// worker above it; one whose parent ended first is "outside a test file". With the run's control
// group (cgroup.mjs), whose total counts every process of the run exactly, "outside a test file"
// is what the group used beyond what was matched to a file: the orphans, with what accounting's
// whole clock ticks leave out of many short processes.
import { spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"
import path from "node:path"

export const OUTSIDE = "(outside a test file)"
/** The runtime of what the group's total holds beyond the matched processes. */
const NOT_MATCHED = "not matched (orphans; short processes)"

/** The run's CPU by test file and by runtime, from its three records (and its group's total, when it had one). */
export function attributeRun({ acctFile, workersFile, reportFile, root, groupCpu }) {
  return attribute(readAccounting(acctFile), readWorkers(workersFile), JSON.parse(readFileSync(reportFile, "utf8")), {
    root,
    groupCpu,
  })
}

/**
 * Every process that ended: its CPU seconds, parent, name, start and end (seconds since the epoch),
 * indexed by indexProcesses(): a suite starts more processes than the kernel has process ids (32768 by
 * default), so one id names several processes in turn, and each is told apart by its lifetime.
 */
export function readAccounting(file) {
  const dumped = spawnSync("dump-acct", [file], { encoding: "utf8", maxBuffer: 1 << 30 })
  if (dumped.error || dumped.status !== 0)
    throw new Error(`dump-acct failed: ${dumped.error?.message ?? dumped.stderr}`)
  const all = []
  for (const line of dumped.stdout.split("\n")) {
    const fields = line.split("|").map((field) => field.trim())
    if (fields.length < 15) continue
    const start = Date.parse(fields[14]) / 1000
    all.push({
      pid: Number(fields[9]),
      name: fields[0],
      cpu: (Number(fields[2]) + Number(fields[3])) / 100,
      parent: Number(fields[10]),
      start,
      end: start + Number(fields[4]) / 100,
    })
  }
  return indexProcesses(all)
}

/** Processes that ended, found by id at a moment: the one of that id alive then. */
export function indexProcesses(all) {
  const byPid = new Map()
  for (const info of all) {
    const same = byPid.get(info.pid) ?? []
    same.push(info)
    byPid.set(info.pid, same)
  }
  /**
   * The process `pid` alive at `at` (seconds; the accounting's start times are whole seconds, so
   * one second either way).
   */
  const get = (pid, at) => {
    let found
    for (const info of byPid.get(pid) ?? []) if (info.start <= at + 1 && info.end >= at - 1) found = info
    return found
  }
  /** The parent of `info`: the process of its parent's id alive when it started. */
  const parentOf = (info) => get(info.parent, info.start)
  return { all, byPid, get, parentOf }
}

/** The workers' records: each worker's process id, its vitest's, and the files it ran (absolute paths). */
export function readWorkers(file) {
  const workers = new Map()
  for (const line of readFileSync(file, "utf8").split("\n").filter(Boolean)) {
    const entry = JSON.parse(line)
    const worker = workers.get(entry.pid) ?? { files: [] }
    if (entry.vitest !== undefined) worker.vitest = entry.vitest
    if (entry.files) worker.files.push(...entry.files)
    workers.set(entry.pid, worker)
  }
  return workers
}

/**
 * Each process goes to the test file of the worker above it: the files the worker was sent, or,
 * for a worker that recorded none (a record of an older version of this script), the file that
 * ran while it did. A process below no worker is this run's vitest's own, one whose parent ended
 * first ("outside a test file"), or not this run's at all (left out).
 */
export function attribute(processes, workerRecords, report, { root, groupCpu } = {}) {
  const files = report.testResults
    .map((file) => ({ name: path.relative(root, file.name), start: file.startTime / 1000, end: file.endTime / 1000 }))
    .sort((a, b) => a.start - b.start)
  const runStart = Math.min(...files.map((file) => file.start))
  const runEnd = Math.max(...files.map((file) => file.end))
  // A worker's record names its id: the process of that id alive while the tests ran, below the vitest it names.
  const workerOf = (pid, record) => {
    const candidates = (processes.byPid.get(pid) ?? []).filter(
      (info) => info.start <= runEnd + 1 && info.end >= runStart - 1,
    )
    return candidates.find((info) => record.vitest !== undefined && info.parent === record.vitest) ?? candidates.at(-1)
  }
  const workers = new Map()
  for (const [pid, record] of workerRecords) {
    const info = workerOf(pid, record)
    if (info !== undefined) workers.set(info, record)
  }
  const vitests = new Set()
  for (const [info, record] of workers) {
    if (record.vitest === undefined) continue
    const vitest = processes.get(record.vitest, info.start)
    if (vitest !== undefined) vitests.add(vitest)
  }
  // A test that runs vitest (on a scaffolded project, say) starts workers of that vitest, which
  // record themselves too: they are that test's processes, not files of this run.
  const below = (info, ancestors) => {
    for (let step = 0; step < 64 && info; step++) {
      if (ancestors.has(info)) return true
      info = processes.parentOf(info)
    }
    return false
  }
  const allWorkers = new Set(workers.keys())
  for (const [info, record] of workers) {
    const vitest = record.vitest === undefined ? undefined : processes.get(record.vitest, info.start)
    if (vitest !== undefined && below(vitest, allWorkers)) {
      workers.delete(info)
      vitests.delete(vitest)
    }
  }
  const fileOfWorker = new Map()
  for (const [info, record] of workers) {
    if (record.files.length === 0) continue
    const [first, ...more] = record.files.map((file) => path.relative(root, file))
    fileOfWorker.set(info, more.length === 0 ? first : `${first} (+${more.length} more in its worker)`)
  }
  matchByTime(
    files.filter((file) => ![...fileOfWorker.values()].includes(file.name)),
    [...workers.keys()].filter((info) => !fileOfWorker.has(info)),
    fileOfWorker,
  )
  const ownerOf = (info) => {
    for (let step = 0; step < 64; step++) {
      if (fileOfWorker.has(info)) return fileOfWorker.get(info)
      if (vitests.has(info)) return "(vitest itself: collecting, transforming, type tests)"
      const parent = processes.parentOf(info)
      if (parent === undefined) return info.parent === 1 ? OUTSIDE : undefined
      info = parent
    }
    return OUTSIDE
  }
  const byFile = new Map()
  const byRuntime = new Map()
  let total = 0
  let leftOut = 0
  for (const info of processes.all) {
    const owner = ownerOf(info)
    // With the group's total, an orphan is counted from it below: accounting cannot tell this
    // run's orphans from another run's.
    if (owner === undefined || (groupCpu !== undefined && owner === OUTSIDE)) {
      leftOut += info.cpu
      continue
    }
    const runtime = fileOfWorker.has(info) ? "vitest worker" : runtimeOf(info)
    const entry = byFile.get(owner) ?? { cpu: 0, processes: 0, runtimes: new Map() }
    entry.cpu += info.cpu
    entry.processes++
    entry.runtimes.set(runtime, (entry.runtimes.get(runtime) ?? 0) + info.cpu)
    byFile.set(owner, entry)
    const all = byRuntime.get(runtime) ?? { cpu: 0, processes: 0, heavy: 0 }
    all.cpu += info.cpu
    all.processes++
    if (info.cpu >= 2) all.heavy++
    byRuntime.set(runtime, all)
    total += info.cpu
  }
  if (groupCpu !== undefined) {
    const rest = Math.max(0, groupCpu - total)
    byFile.set(OUTSIDE, { cpu: rest, processes: 0, runtimes: new Map([[NOT_MATCHED, rest]]) })
    byRuntime.set(NOT_MATCHED, { cpu: rest, processes: 0, heavy: 0 })
    total = Math.max(total, groupCpu)
  }
  const matched = new Set(fileOfWorker.values()).size
  return {
    total,
    leftOut,
    wall: runEnd - runStart,
    byFile,
    byRuntime,
    matched,
    files: files.length,
    exact: groupCpu !== undefined,
  }
}

/** Gives each of `files` the free worker that ran while it did, the nearest in time (records without files). */
function matchByTime(files, workers, fileOfWorker) {
  const free = new Set(workers)
  for (const file of files) {
    let best
    for (const worker of free) {
      if (worker.start > file.start + 1 || worker.end < file.end - 1) continue
      const distance = Math.abs(file.start - worker.start) + Math.abs(worker.end - file.end)
      if (best === undefined || distance < best.distance) best = { worker, distance }
    }
    if (best === undefined) continue
    fileOfWorker.set(best.worker, file.name)
    free.delete(best.worker)
  }
}

function runtimeOf(info) {
  if (/^(opencode|JITWorker|HeapHelper|HTTP Client|Bun Pool|notify-rs|fff-|ollector Thread)/.test(info.name)) {
    return "Bun (opencode, the bun engine)"
  }
  if (info.name === "node") return "node (bins, engines, package managers, tsc, vitest)"
  return info.name
}

/** A test file's folder down to the first one below `test/`: packages/tool-tester/test/cli, test/install. */
export function folderOf(file) {
  const parts = file.split(/[\\/]/)
  const at = parts.indexOf("test")
  return parts.slice(0, at === -1 ? -1 : Math.min(at + 2, parts.length - 1)).join("/")
}
