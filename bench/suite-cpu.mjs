// Where the test suite's CPU time goes: the README's test command is CPU-bound on two cores (both
// busy from start to end), so its wall time is its CPU time over the cores, and only less CPU work
// makes it shorter. This runs vitest (the build must be done) under Linux process accounting,
// which records every process that ends, whatever started it, with its CPU time and parent, and
// gives each test file the CPU of its vitest worker and of everything below it: the built bins,
// the engines, the real opencode, the package managers.
//
//   node bench/suite-cpu.mjs [--top N] [-- VITEST ARGS]       (as root, with `accton` installed)
//   node bench/suite-cpu.mjs --read ACCT_FILE WORKERS_FILE REPORT [--top N]
//
// Linux only, as root: `apt-get install acct`. Each vitest worker records its process id and the
// test files vitest sends it to run, so a file gets its own worker's CPU whatever ran beside it. A
// process whose parent ended before it (a detached engine, a daemon, opencode's own children) is
// counted apart, "outside a test file". The accounting sees every process of the machine: what
// did not start below this run's vitest (a shell's commands beside it) is left out, and counted on
// a line of its own. Runtimes are told apart by the name the kernel keeps for a process: Bun names
// its threads (JITWorker, HeapHelper, Bun Pool), and the name of the last thread to end is the one
// recorded.
import { spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const { values, positionals } = parseArgs({
  options: { top: { type: "string", default: "25" }, read: { type: "boolean", default: false } },
  allowPositionals: true,
})
const top = Number(values.top)

const [acctFile, workersFile, reportFile] = values.read ? positionals : record(positionals)
if (!acctFile || !workersFile || !reportFile) fail("--read takes ACCT_FILE WORKERS_FILE REPORT")
print(attribute(readAccounting(acctFile), readWorkers(workersFile), JSON.parse(readFileSync(reportFile, "utf8"))))

// --- internal ---

/** Runs vitest under accounting; returns the three files it wrote. */
function record(vitestArgs) {
  if (process.platform !== "linux" || process.getuid?.() !== 0) fail("run as root on Linux (process accounting)")
  const folder = mkdtempSync(path.join(os.tmpdir(), "suite-cpu-"))
  const acct = path.join(folder, "pacct")
  const workers = path.join(folder, "workers.jsonl")
  const report = path.join(folder, "report.json")
  const preload = path.join(folder, "worker-pid.cjs")
  // Each vitest worker says which process it is, below which vitest, and which files it is sent to
  // run: vitest's "run" message lists them (forks.js is vitest's worker entry). The messages are
  // watched as they are emitted: a listener of its own would start reading the channel before
  // vitest listens, and vitest would miss its first message.
  writeFileSync(
    preload,
    `if (process.argv[1] && process.argv[1].includes("vitest") && process.argv[1].endsWith("forks.js")) {
  const { appendFileSync } = require("node:fs")
  const record = (entry) => appendFileSync(${JSON.stringify(workers)}, JSON.stringify({ pid: process.pid, ...entry }) + "\\n")
  record({ vitest: process.ppid })
  const emit = process.emit
  process.emit = function (name, message, ...rest) {
    const files = name === "message" && message && message.type === "run" && message.context && message.context.files
    if (Array.isArray(files)) record({ files: files.map((file) => file.filepath ?? file) })
    return emit.call(this, name, message, ...rest)
  }
}\n`,
  )
  writeFileSync(acct, "")
  writeFileSync(workers, "")
  must(spawnSync("accton", [acct], { stdio: "inherit" }), "accton (apt-get install acct)")
  const started = performance.now()
  try {
    spawnSync(
      process.execPath,
      [
        path.join(root, "node_modules", "vitest", "vitest.mjs"),
        "run",
        "--reporter=dot",
        "--reporter=json",
        `--outputFile.json=${report}`,
        ...vitestArgs,
      ],
      { cwd: root, stdio: "inherit", env: { ...process.env, NODE_OPTIONS: `--require ${preload}` } },
    )
  } finally {
    spawnSync("accton", ["off"], { stdio: "inherit" })
  }
  console.log(`\nvitest took ${((performance.now() - started) / 1000).toFixed(0)} s; files kept in ${folder}\n`)
  return [acct, workers, report]
}

/**
 * Every process that ended: its CPU seconds, parent, name, start and end (seconds since the epoch),
 * indexed by indexProcesses(): a suite starts more processes than the kernel has process ids (32768 by
 * default), so one id names several processes in turn, and each is told apart by its lifetime.
 */
function readAccounting(file) {
  const dumped = spawnSync("dump-acct", [file], { encoding: "utf8", maxBuffer: 1 << 30 })
  must(dumped, "dump-acct")
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
function indexProcesses(all) {
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
function readWorkers(file) {
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
function attribute(processes, workerRecords, report) {
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
      if (parent === undefined) return info.parent === 1 ? "(outside a test file)" : undefined
      info = parent
    }
    return "(outside a test file)"
  }
  const byFile = new Map()
  const byRuntime = new Map()
  let total = 0
  let leftOut = 0
  for (const info of processes.all) {
    const owner = ownerOf(info)
    if (owner === undefined) {
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
  const matched = new Set(fileOfWorker.values()).size
  return { total, leftOut, wall: runEnd - runStart, byFile, byRuntime, matched, files: files.length }
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

function print({ total, leftOut, wall, byFile, byRuntime, matched, files }) {
  console.log(
    `CPU ${total.toFixed(0)} s in ${wall.toFixed(0)} s of tests: ${(total / wall).toFixed(2)} cores busy on average (${os.availableParallelism()} here); ${matched} of ${files} files matched to their worker`,
  )
  console.log(`Left out: ${leftOut.toFixed(0)} s of CPU by processes this run did not start\n`)
  console.log("By runtime (processes; those over 2 s of CPU):")
  for (const [runtime, entry] of [...byRuntime].sort((a, b) => b[1].cpu - a[1].cpu).slice(0, 8)) {
    console.log(
      `  ${entry.cpu.toFixed(0).padStart(6)} s  ${((100 * entry.cpu) / total).toFixed(0).padStart(3)}%  ${runtime} (${entry.processes}; ${entry.heavy})`,
    )
  }
  console.log("\nBy folder of test files (files):")
  const folders = new Map()
  for (const [file, entry] of byFile) {
    const folder = file.startsWith("(") ? file : folderOf(file)
    const sum = folders.get(folder) ?? { cpu: 0, files: 0 }
    sum.cpu += entry.cpu
    sum.files++
    folders.set(folder, sum)
  }
  for (const [folder, sum] of [...folders].sort((a, b) => b[1].cpu - a[1].cpu).slice(0, 12)) {
    console.log(
      `  ${sum.cpu.toFixed(0).padStart(6)} s  ${((100 * sum.cpu) / total).toFixed(0).padStart(3)}%  ${folder} (${sum.files})`,
    )
  }
  console.log(`\nThe ${top} files that cost the most CPU (with all they started):`)
  for (const [file, entry] of [...byFile].sort((a, b) => b[1].cpu - a[1].cpu).slice(0, top)) {
    const runtimes = [...entry.runtimes]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([name, cpu]) => `${name.split(" ")[0]} ${cpu.toFixed(0)}`)
      .join(", ")
    console.log(`  ${entry.cpu.toFixed(1).padStart(7)} s  ${file}  [${runtimes}]`)
  }
}

/** A test file's folder down to the first one below `test/`: packages/tool-tester/test/cli, test/install. */
function folderOf(file) {
  const parts = file.split(/[\\/]/)
  const at = parts.indexOf("test")
  return parts.slice(0, at === -1 ? -1 : Math.min(at + 2, parts.length - 1)).join("/")
}

function must(result, what) {
  if (result.error || result.status !== 0) fail(`${what} failed: ${result.error?.message ?? result.stderr ?? ""}`)
}

function fail(message) {
  console.error(message)
  process.exit(2)
}
