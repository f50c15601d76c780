// Prints "N passed, N failed" from a vitest JSON report. Exits 1 when a test failed, when no test
// ran, or when the report is missing (the run crashed before writing it). On Linux with CI=true a
// skipped or todo test fails the run too: Linux has everything the tests need (the opencode
// binary, chromium), so a skip there hides a test that did not run; the skipped ones are listed
// first. Elsewhere a test skips only where something is absent, and says why in its name.
import { readFileSync } from "node:fs"
import path from "node:path"

const file = process.argv[2] ?? ".vitest-report.json"
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
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed > 0 || passed === 0 || report.success === false ? 1 : 0)

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
