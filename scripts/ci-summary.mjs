// Prints "N passed, N failed" from a vitest JSON report. Exits 1 when a test failed, when no test
// ran, or when the report is missing (the run crashed before writing it). On Linux with CI=true a
// skipped or todo test fails the run too: Linux has everything the tests need (the opencode
// binary, chromium), so a skip there hides a test that did not run; the skipped ones are listed
// first. Elsewhere a test skips only where something is absent, and says why in its name.
// With `--smoke FILE` (the Windows smoke's summary, scripts/windows-smoke/smoke.mjs), each of its
// rows counts too: one that matches Linux as passed, one that differs as failed, and a missing
// summary (the smoke did not finish) as one failure.
import { readFileSync } from "node:fs"
import path from "node:path"
import { parseArgs } from "node:util"

const { values: options, positionals } = parseArgs({ options: { smoke: { type: "string" } }, allowPositionals: true })
const file = positionals[0] ?? ".vitest-report.json"
let report
try {
  report = JSON.parse(readFileSync(file, "utf8"))
} catch (error) {
  console.log(`0 passed, 1 failed (no vitest report at ${file}: ${error.message})`)
  process.exit(1)
}
const passed = report.numPassedTests ?? 0
// Files that failed with no failed test (they failed to load) count as one failure each: their
// tests never ran. (numFailedTestSuites counts describe blocks too, so it cannot be used for that.)
let failed = (report.numFailedTests ?? 0) + countFilesFailedWithoutTests(report)
const skipped = skippedTests(report)
const skipsFail = process.env.CI === "true" && process.platform === "linux" && skipped.length > 0
if (skipped.length > 0) {
  console.log(
    `${skipped.length} test(s) skipped${skipsFail ? " (not allowed on Linux CI: everything the tests need is installed there)" : ""}:`,
  )
  for (const test of skipped) console.log(`  ${test}`)
}
if (skipsFail) failed += skipped.length
let smokePassed = 0
if (options.smoke !== undefined) {
  const smoke = windowsSmoke(options.smoke)
  smokePassed = smoke.passed
  failed += smoke.failed
}
console.log(`${passed + smokePassed} passed, ${failed} failed`)
process.exit(failed > 0 || passed === 0 || report.success === false ? 1 : 0)

/** The smoke's rows: { passed, failed }, saying which differ. */
function windowsSmoke(file) {
  let summary
  try {
    summary = JSON.parse(readFileSync(file, "utf8"))
  } catch (error) {
    console.log(`Windows smoke: no summary at ${file} (${error.message}): it did not finish`)
    return { passed: 0, failed: 1 }
  }
  const passed = Number(summary.passed) || 0
  const failed = Number(summary.failed) || 0
  if (summary.error !== undefined) console.log(`Windows smoke could not run: ${summary.error}`)
  else if (failed > 0) console.log(`Windows smoke rows that differ from Linux: ${summary.differ.join(", ")}`)
  return { passed, failed }
}

function countFilesFailedWithoutTests(report) {
  return (report.testResults ?? []).filter(
    (suite) => suite.status === "failed" && !(suite.assertionResults ?? []).some((test) => test.status === "failed"),
  ).length
}

/** "file > describe > test [status]" for every test that did not run. */
function skippedTests(report) {
  const found = []
  for (const suite of report.testResults ?? []) {
    for (const test of suite.assertionResults ?? []) {
      if (!["skipped", "pending", "todo", "disabled"].includes(test.status)) continue
      const where = path.relative(process.cwd(), suite.name ?? "")
      found.push(`${where} > ${[...(test.ancestorTitles ?? []), test.title].join(" > ")} [${test.status}]`)
    }
  }
  return found
}
