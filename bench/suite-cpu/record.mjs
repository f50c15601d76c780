// Runs vitest in one or more checkouts at once, under Linux process accounting (which records
// every process that ends, with its CPU time and parent), each run in a control group of its own
// (cgroup.mjs) that counts its whole CPU. Runs that go side by side share the machine's state
// (its speed drifts by 15-20% over an hour here), so their ratio holds where two runs an hour apart
// would not.
import { spawn, spawnSync } from "node:child_process"
import { mkdirSync, writeFileSync } from "node:fs"
import path from "node:path"
import { cpuSeconds, createGroup, enter, leave, removeGroup } from "./cgroup.mjs"

/**
 * Records vitest in each of `roots` (checkouts, built), started together, with `vitestArgs`;
 * `folder` holds the records. Resolves to the accounting file and, per root, its records: the
 * workers' file, vitest's JSON report, its group's CPU seconds (undefined without cgroups), how
 * long it took and how vitest exited.
 */
export async function record({ roots, folder, vitestArgs }) {
  const acctFile = path.join(folder, "pacct")
  writeFileSync(acctFile, "")
  must(spawnSync("accton", [acctFile], { stdio: "inherit" }), "accton (apt-get install acct)")
  try {
    const runs = roots.map((root, index) => prepare(root, path.join(folder, `run-${index + 1}`)))
    // Side by side, each run's dots would mix: only the first run's go to the terminal.
    const ended = runs.map((run, index) => start(run, vitestArgs, index === 0 ? "inherit" : "ignore"))
    const results = await Promise.all(ended)
    return { acctFile, runs: results }
  } finally {
    spawnSync("accton", ["off"], { stdio: "inherit" })
  }
}

// --- internal ---

function prepare(root, folder) {
  mkdirSync(folder, { recursive: true })
  const workersFile = path.join(folder, "workers.jsonl")
  const reportFile = path.join(folder, "report.json")
  const preload = path.join(folder, "worker-pid.cjs")
  writeFileSync(workersFile, "")
  // Each vitest worker says which process it is, below which vitest, and which files it is sent to
  // run: vitest's "run" message lists them (forks.js is vitest's worker entry). The messages are
  // watched as they are emitted: a listener of its own would start reading the channel before
  // vitest listens, and vitest would miss its first message.
  writeFileSync(
    preload,
    `if (process.argv[1] && process.argv[1].includes("vitest") && process.argv[1].endsWith("forks.js")) {
  const { appendFileSync } = require("node:fs")
  const record = (entry) => appendFileSync(${JSON.stringify(workersFile)}, JSON.stringify({ pid: process.pid, ...entry }) + "\\n")
  record({ vitest: process.ppid })
  const emit = process.emit
  process.emit = function (name, message, ...rest) {
    const files = name === "message" && message && message.type === "run" && message.context && message.context.files
    if (Array.isArray(files)) record({ files: files.map((file) => file.filepath ?? file) })
    return emit.call(this, name, message, ...rest)
  }
}\n`,
  )
  return { root, folder, workersFile, reportFile, preload }
}

/** Starts vitest in `run.root`, inside a new group: this process enters it for the spawn only. */
function start(run, vitestArgs, stdout) {
  const group = createGroup(`suite-cpu-${process.pid}-${path.basename(run.folder)}`)
  if (group) enter(group)
  const started = performance.now()
  let child
  try {
    child = spawn(
      process.execPath,
      [
        path.join(run.root, "node_modules", "vitest", "vitest.mjs"),
        "run",
        "--reporter=dot",
        "--reporter=json",
        `--outputFile.json=${run.reportFile}`,
        ...vitestArgs,
      ],
      {
        cwd: run.root,
        stdio: ["ignore", stdout, "inherit"],
        env: { ...process.env, NODE_OPTIONS: `--require ${run.preload}` },
      },
    )
  } finally {
    if (group) leave(group)
  }
  return new Promise((resolve) => {
    child.on("close", (code, signal) => {
      const seconds = (performance.now() - started) / 1000
      // What its processes left running still counts when it ends: read the total now.
      const groupCpu = group ? cpuSeconds(group) : undefined
      if (group) removeGroup(group)
      resolve({ ...run, groupCpu, seconds, exit: code ?? signal })
    })
  })
}

function must(result, what) {
  if (result.error || result.status !== 0)
    throw new Error(`${what} failed: ${result.error?.message ?? result.stderr ?? ""}`)
}
