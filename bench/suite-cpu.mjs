// Where the test suite's CPU time goes: the README's test command is CPU-bound on two cores (both
// busy from start to end), so its wall time is its CPU time over the cores, and only less CPU work
// makes it shorter. This runs vitest (the build must be done) under Linux process accounting,
// which records every process that ends, whatever started it, with its CPU time and parent, and
// gives each test file the CPU of its vitest worker and of everything below it: the built bins,
// the engines, the real opencode, the package managers (suite-cpu/attribute.mjs). Each run is in
// a control group of its own, whose total is exact (suite-cpu/cgroup.mjs).
//
//   node bench/suite-cpu.mjs [--top N] [-- VITEST ARGS]                  (as root, with `accton` installed)
//   node bench/suite-cpu.mjs --baseline REV|FOLDER [--budget PERCENT] [--top N] [-- VITEST ARGS]
//   node bench/suite-cpu.mjs --read ACCT_FILE WORKERS_FILE REPORT [--top N]
//
// --baseline compares this checkout with another: a git revision (checked out as a worktree in a
// temporary folder, installed and built) or a checkout that is installed and built. Both suites
// run at the same time, so the machine's speed, which drifts by 15-20% within an hour here, is
// the same for both; the totals are their groups'. It prints both side by side and PASS when this
// checkout's CPU is at most --budget percent (default 5) above the baseline's, else FAIL (exit 1).
//
// Linux only, as root: `apt-get install acct`. Each vitest worker records its process id and the
// test files vitest sends it to run, so a file gets its own worker's CPU whatever ran beside it. A
// process whose parent ended before it (a detached engine, a daemon, opencode's own children) is
// counted apart, "outside a test file". Runtimes are told apart by the name the kernel keeps for a
// process: Bun names its threads (JITWorker, HeapHelper, Bun Pool), and the name of the last
// thread to end is the one recorded.
import { mkdtempSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { benchArgs } from "./_args.mjs"
import { attributeRun } from "./suite-cpu/attribute.mjs"
import { prepareBaseline } from "./suite-cpu/baseline.mjs"
import { record } from "./suite-cpu/record.mjs"
import { comparisonReport, singleReport } from "./suite-cpu/report.mjs"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const { values, positionals, count, fail } = benchArgs(
  import.meta.url,
  {
    top: { type: "string", default: "25" },
    read: { type: "boolean", default: false },
    baseline: { type: "string" },
    budget: { type: "string", default: "5" },
  },
  { positionals: true },
)
const top = count("top")
const budget = Number(values.budget)
if (!Number.isFinite(budget) || values.budget.trim() === "")
  fail(`--budget must be a number of percent, not ${values.budget}`)

try {
  if (values.read) {
    const [acctFile, workersFile, reportFile] = positionals
    if (!acctFile || !workersFile || !reportFile) fail("--read takes ACCT_FILE WORKERS_FILE REPORT")
    print(singleReport(attributeRun({ acctFile, workersFile, reportFile, root }), top))
  } else {
    if (process.platform !== "linux" || process.getuid?.() !== 0) fail("run as root on Linux (process accounting)")
    const folder = mkdtempSync(path.join(os.tmpdir(), "suite-cpu-"))
    if (values.baseline === undefined) {
      const { acctFile, runs } = await record({ roots: [root], folder, vitestArgs: positionals })
      console.log(`\nvitest took ${runs[0].seconds.toFixed(0)} s; files kept in ${folder}\n`)
      print(singleReport(attributeRun({ acctFile, ...runs[0] }), top))
    } else {
      process.exitCode = await compare(values.baseline, folder)
    }
  }
} catch (error) {
  fail(error instanceof Error ? error.message : String(error))
}

// --- internal ---

async function compare(spec, folder) {
  console.log(`Preparing the baseline ${spec}...`)
  const baseline = prepareBaseline(spec, { root, folder })
  try {
    const { acctFile, runs } = await record({ roots: [root, baseline.root], folder, vitestArgs: positionals })
    const [head, base] = runs.map((run) => attributeRun({ acctFile, ...run }))
    console.log(
      `\nvitest took ${runs[0].seconds.toFixed(0)} s here and ${runs[1].seconds.toFixed(0)} s in the baseline, side by side (exits ${runs[0].exit} and ${runs[1].exit}); files kept in ${folder}\n`,
    )
    if (runs.some((run) => run.groupCpu === undefined))
      console.log("No cgroup here: the totals leave out orphans of both runs.\n")
    const { lines, pass } = comparisonReport(base, head, {
      top,
      budget: budget / 100,
      names: { base: "baseline", head: "this" },
    })
    print(lines)
    if (runs.some((run) => run.exit !== 0)) {
      console.log("A run had failing tests: its CPU is not the suite's, see the output above.")
      return 1
    }
    return pass ? 0 : 1
  } finally {
    baseline.remove()
  }
}

function print(lines) {
  for (const line of lines) console.log(line)
}
