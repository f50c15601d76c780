// How long the test suite took, from vitest's JSON report (the one `pnpm test` writes,
// .vitest-report.json): the wall time of the tests, the sum of the files' times (what the workers
// spent, so the wall time a machine with more or fewer free cores would see), and the slowest files.
// With two reports (before and after a change), both side by side, per file.
//
//   node bench/suite-time.mjs [REPORT] [--top N]
//   node bench/suite-time.mjs BEFORE AFTER [--top N]
//
// The wall time runs from the report's start to the last file's end: the build that `pnpm test`
// runs before vitest is not in it (test.mjs prints it). A file's time is its startTime to endTime
// (collection, hooks and tests); its tests' own durations are summed beside it, for a file whose
// setup (a global setup, a beforeAll) takes longer than its tests.
import { readFileSync } from "node:fs"
import path from "node:path"
import { benchArgs } from "./_args.mjs"

const { positionals, count, fail } = benchArgs(
  import.meta.url,
  { top: { type: "string", default: "15" } },
  { positionals: true },
)
const top = count("top")
if (positionals.length > 2) fail("give at most two reports: BEFORE AFTER")
const files = positionals.length === 0 ? [".vitest-report.json"] : positionals
const reports = files.map((file) => ({ file, ...summarize(read(file)) }))

if (reports.length === 1) {
  const [report] = reports
  console.log(`${report.file}: ${describe(report)}`)
  console.log(`\nThe ${Math.min(top, report.files.length)} slowest files (file time, tests' own time, tests):`)
  for (const file of report.files.slice(0, top)) {
    console.log(
      `${seconds(file.time).padStart(8)} ${seconds(file.tests).padStart(8)} ${String(file.count).padStart(4)}  ${file.name}`,
    )
  }
} else {
  const [before, after] = reports
  console.log(`before ${before.file}: ${describe(before)}`)
  console.log(`after  ${after.file}: ${describe(after)}`)
  console.log(`wall ${ratio(after.wall, before.wall)}, sum ${ratio(after.sum, before.sum)}`)
  // The slowest files of either run, so a file that got faster (or disappeared, split) shows too.
  const names = [...new Set([...before.files.slice(0, top), ...after.files.slice(0, top)].map((file) => file.name))]
  const time = (report, name) => report.files.find((file) => file.name === name)?.time
  console.log(`\nThe slowest files of either run (file time before, after):`)
  for (const name of names.sort((a, b) => (time(before, b) ?? 0) - (time(before, a) ?? 0))) {
    const was = time(before, name)
    const is = time(after, name)
    console.log(`${optional(was).padStart(8)} ${optional(is).padStart(8)}  ${name}`)
  }
}

// --- internal ---

function read(file) {
  try {
    return JSON.parse(readFileSync(file, "utf8"))
  } catch (error) {
    fail(`cannot read a vitest JSON report at ${file}: ${error.message}`)
  }
}

function summarize(report) {
  if (!Array.isArray(report.testResults)) fail("not a vitest JSON report: it has no testResults")
  const root = commonFolder(report.testResults.map((result) => result.name))
  const files = report.testResults
    .map((result) => ({
      name: path.relative(root, result.name),
      time: Math.max(0, (result.endTime ?? 0) - (result.startTime ?? 0)),
      tests: (result.assertionResults ?? []).reduce((sum, test) => sum + (test.duration ?? 0), 0),
      count: (result.assertionResults ?? []).length,
      end: result.endTime ?? 0,
    }))
    .sort((a, b) => b.time - a.time)
  const start = report.startTime ?? Math.min(...report.testResults.map((result) => result.startTime))
  const end = Math.max(start, ...files.map((file) => file.end))
  return {
    files,
    wall: end - start,
    sum: files.reduce((sum, file) => sum + file.time, 0),
    tests: report.numTotalTests ?? files.reduce((sum, file) => sum + file.count, 0),
    failed: report.numFailedTests ?? 0,
  }
}

function describe(report) {
  return `wall ${seconds(report.wall)}, sum of file times ${seconds(report.sum)} (${(report.sum / Math.max(report.wall, 1)).toFixed(1)} files at once on average), ${report.files.length} files, ${report.tests} tests, ${report.failed} failed`
}

/** The folder every file is in, so names print relative to the repository. */
function commonFolder(names) {
  if (names.length === 0) return "/"
  let common = path.dirname(names[0])
  while (!names.every((name) => name.startsWith(common + path.sep)) && path.dirname(common) !== common) {
    common = path.dirname(common)
  }
  return common
}

function seconds(ms) {
  return `${(ms / 1000).toFixed(1)} s`
}

function optional(ms) {
  return ms === undefined ? "-" : seconds(ms)
}

function ratio(after, before) {
  return `${seconds(before)} -> ${seconds(after)} (${before > 0 ? `${((after / before) * 100).toFixed(0)}%` : "-"})`
}
