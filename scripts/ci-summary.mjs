// Prints "N passed, N failed" from a vitest JSON report. Exits 1 when a test failed, when no test
// ran, or when the report is missing (the run crashed before writing it).
import { readFileSync } from "node:fs"

const file = process.argv[2] ?? ".vitest-report.json"
let report
try {
  report = JSON.parse(readFileSync(file, "utf8"))
} catch (error) {
  console.log(`0 passed, 1 failed (no vitest report at ${file}: ${error.message})`)
  process.exit(1)
}
const passed = report.numPassedTests ?? 0
// Suites that failed to load count as failures too: their tests never ran.
const failed = (report.numFailedTests ?? 0) + (report.numFailedTestSuites ?? 0) - countSuitesWithFailedTests(report)
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed > 0 || passed === 0 || report.success === false ? 1 : 0)

function countSuitesWithFailedTests(report) {
  return (report.testResults ?? []).filter((suite) =>
    (suite.assertionResults ?? []).some((test) => test.status === "failed"),
  ).length
}
