// What `tool-tester verify` prints: per behaviour, agree or differ, and for each difference the
// probe run, what was compared and the two texts around where they part (a short diff); the probe
// runs that could not be compared, each with its reason; or the same as one JSON document.

import { count } from "../_count.ts"
import { terminalSafe } from "../_terminal-safe.ts"
import { BEHAVIOURS, type Behaviour, type Check } from "./behaviours.ts"
import type { FailedRun } from "./failed-run.ts"
import type { VerifyRuns } from "./run-verify.ts"

export interface VerifyReport {
  /** The opencode binary the probes ran through, and its version. */
  opencode: { binary: string; version: string }
  /** The version tool-tester models. */
  modelledVersion: string
  /** Per behaviour: how many checks agree and differ (a behaviour no probe run checked has 0 and 0). */
  behaviours: Array<{ behaviour: Behaviour; agree: number; differ: number }>
  /** Every difference, with both texts in full. */
  differences: Check[]
  /** The probe runs that could not be compared (a side failed to start or crashed), with their reasons. */
  failedRuns: FailedRun[]
  /** True when every check agrees and every probe run was compared. */
  agree: boolean
  /** Where the time went: the whole verify, its lanes and each run (absent when no runs were timed). */
  timings?: Omit<VerifyRuns, "checks" | "failed">
}

export function verifyReport(
  checks: readonly Check[],
  opencode: VerifyReport["opencode"],
  modelledVersion: string,
  timings?: VerifyReport["timings"],
  failedRuns: readonly FailedRun[] = [],
): VerifyReport {
  const behaviours = BEHAVIOURS.map((behaviour) => {
    const own = checks.filter((check) => check.behaviour === behaviour)
    const differ = own.filter((check) => !check.agree).length
    return { behaviour, agree: own.length - differ, differ }
  })
  const differences = checks.filter((check) => !check.agree)
  return {
    opencode,
    modelledVersion,
    behaviours,
    differences,
    failedRuns: [...failedRuns],
    agree: differences.length === 0 && failedRuns.length === 0,
    ...(timings === undefined ? {} : { timings }),
  }
}

/** At most this many differences are printed per behaviour in the text report (--json has them all). */
const shownPerBehaviour = 5

export function formatVerifyReport(report: VerifyReport): string {
  const version = report.opencode.version
  const lines = [
    `tool-tester (models opencode ${report.modelledVersion}) against opencode ${version} (${report.opencode.binary})`,
    "",
  ]
  const width = Math.max(...report.behaviours.map((entry) => entry.behaviour.length))
  for (const entry of report.behaviours) {
    const total = entry.agree + entry.differ
    const verdict =
      total === 0
        ? "not checked"
        : entry.differ === 0
          ? `agree (${count(total, "check")})`
          : `DIFFER (${entry.differ} of ${count(total, "check")})`
    lines.push(`  ${entry.behaviour.padEnd(width)}  ${verdict}`)
  }
  for (const entry of report.behaviours.filter((entry) => entry.differ > 0)) {
    lines.push("", `${entry.behaviour}:`)
    const own = report.differences.filter((check) => check.behaviour === entry.behaviour)
    for (const difference of own.slice(0, shownPerBehaviour)) {
      const [opencodeText, toolTesterText] = shortDiff(difference.opencode ?? "", difference.toolTester ?? "")
      lines.push(
        `  ${difference.set}/${difference.run}: ${difference.subject}`,
        `    opencode:    ${opencodeText}`,
        `    tool-tester: ${toolTesterText}`,
      )
    }
    if (own.length > shownPerBehaviour)
      lines.push(`  ... and ${own.length - shownPerBehaviour} more (--json lists them all)`)
  }
  if (report.failedRuns.length > 0) {
    lines.push("", "not compared (a side failed to start or crashed):")
    for (const failed of report.failedRuns)
      lines.push(`  ${failed.set}/${failed.run}: ${failed.side}: ${terminalSafe(`${failed.message} [${failed.code}]`)}`)
  }
  if (report.timings !== undefined) lines.push("", timingLine(report.timings))
  lines.push("", verdict(report))
  return `${lines.join("\n")}\n`
}

/** The last line: all agree, or how many differences and runs not compared. */
function verdict(report: VerifyReport): string {
  const version = report.opencode.version
  if (report.agree) return `All agree: tool-tester's predictions hold for opencode ${version}.`
  const notCompared = `${count(report.failedRuns.length, "probe run")} not compared`
  if (report.differences.length === 0)
    return `${notCompared}; every check of the others agrees, but tool-tester's predictions are unchecked there.`
  const differences = `${count(report.differences.length, "difference")}: where they are, tool-tester's predictions do not hold for opencode ${version}`
  return report.failedRuns.length === 0 ? `${differences}.` : `${differences}; ${notCompared}.`
}

/**
 * The two texts around where they part: what both share before is cut to `context` characters
 * (marked with …), the differing middles kept up to `width` characters each, on one line
 * (line breaks shown as ⏎).
 */
export function shortDiff(a: string, b: string, context = 30, width = 160): [string, string] {
  let start = 0
  while (start < a.length && start < b.length && a[start] === b[start]) start++
  let end = 0
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++
  const from = Math.max(0, start - context)
  const cut = (text: string) => {
    const middleEnd = Math.min(text.length - end + context, text.length)
    let shown = text.slice(from, middleEnd)
    if (shown.length > width) shown = `${shown.slice(0, width)}…`
    else if (middleEnd < text.length) shown = `${shown}…`
    return terminalSafe(`${from > 0 ? "…" : ""}${shown}`.replaceAll("\n", "⏎"))
  }
  if (a === "") return ["(nothing)", cut(b)]
  if (b === "") return [cut(a), "(nothing)"]
  return [cut(a), cut(b)]
}

/**
 * One line on where the time went: the runs, the wall time and lanes, each side's median run, and
 * the runs stopped as hung with the bound they reached (the longest).
 */
export function timingLine(timings: NonNullable<VerifyReport["timings"]>): string {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`
  const hung = timings.runs.filter((run) => run.hung)
  const parts = [
    `${count(timings.runs.length, "probe run")} in ${seconds(timings.durationMs)} (${timings.concurrency} at once, as many again for runs that may hang)`,
    `a run's median: opencode ${seconds(median(timings.runs.map((run) => run.opencodeMs)))}, tool-tester ${seconds(median(timings.runs.map((run) => run.toolTesterMs)))}`,
    ...(hung.length === 0
      ? []
      : [`${hung.length} stopped as hung at up to ${seconds(Math.max(...hung.map((run) => run.boundMs)))}`]),
  ]
  return `${parts.join("; ")} (--json: each run's timing).`
}

function median(values: readonly number[]): number {
  if (values.length === 0) return 0
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}
