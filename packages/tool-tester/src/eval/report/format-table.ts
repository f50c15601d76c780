// The terminal report of an eval run: the cases, each followed by a row per model (pass rate, the
// change since the previous run, tokens, cost, time); then, for each case x model that failed,
// what went wrong; then the diff of each tool that changed since the previous run, once. Plain
// text; colour only when asked. What models and tools wrote is shown terminal-safe
// (../../_terminal-safe.ts).

import { type Paint, type Palette, palette } from "../../_palette.ts"
import { terminalSafe } from "../../_terminal-safe.ts"
import type { EvalResult, EvalRun, ResultChange } from "../types.ts"
import {
  changeSummary,
  failureReasons,
  formatCost,
  formatSeconds,
  formatTokens,
  meanTrialTime,
  passRate,
  budgetSummary,
  passRateWithInterval,
  rateChanged,
  readableTime,
  significanceSentence,
  trialNotes,
} from "./_format.ts"
import { armLines, compareArms, normalResults } from "./arms.ts"
import { changedParts } from "./compare.ts"
import { resultKey, totalsOf } from "./summarize.ts"
import { count } from "../../_count.ts"

export interface EvalTableOptions {
  /** Colour with ANSI codes (kleur/colors, which also honours NO_COLOR). */
  color: boolean
  /** The widest a line may be where the content allows (default 100). */
  width?: number
}

export function formatEvalTable(
  fullRun: EvalRun,
  changes: Map<string, ResultChange>,
  options: EvalTableOptions,
): string {
  // The table is the normal run; variants and --without runs come after it, side by side.
  const run = { ...fullRun, results: normalResults(fullRun.results) }
  const paint = palette(options.color)
  const width = Math.max(40, options.width ?? 100)
  const lines: string[] = []
  const models = new Set(run.results.map((result) => result.model))
  const cases = new Set(run.results.map((result) => result.case))
  const header = `tool-tester eval: ${count(cases.size, "case")} x ${count(models.size, "model")}, ${formatSeconds(run.durationMs)}`
  const version = run.opencodeVersion ? `, opencode ${run.opencodeVersion}` : ""
  lines.push(paint.bold(header) + paint.dim(version))
  if (run.results.length === 0) {
    lines.push("No case ran.")
    return `${lines.join("\n")}\n`
  }

  lines.push("", ...table(run.results, changes, width, paint))

  const totals = totalsOf(run.results)
  const perfect = run.results.filter((result) => result.passed === result.runs).length
  lines.push(
    "",
    `${passRateWithInterval(totals.total)} trials passed; ${perfect}/${run.results.length} case x model passed every run.`,
  )
  // Per case and per model only when there is more than one of each (else it is the table's row or the total).
  if (models.size > 1)
    for (const line of totalsLine(
      "By model",
      totals.byModel.map((count) => [count.model, count]),
      width,
    ))
      lines.push(line)
  if (cases.size > 1 && models.size > 1)
    for (const line of totalsLine(
      "By case",
      totals.byCase.map((count) => [count.case, count]),
      width,
    ))
      lines.push(line)
  lines.push(paint.dim("Pass rates show their 95% interval (Wilson) in brackets."))

  for (const result of run.results) {
    const notes = trialNotes(result)
    if (result.passed === result.runs && notes.length === 0) continue
    lines.push("")
    const title = `${safe(result.case)} on ${safe(result.model)}: ${passRate(result.passed, result.runs)} passed`
    lines.push(...wrap(title, width, "", "  ").map((line, index) => (index === 0 ? paint.bold(line) : line)))
    const budget = budgetSummary(result)
    if (budget !== "") lines.push(...wrap(budget, width, "  ", "    ").map(paint.dim))
    for (const { reason, count: times } of failureReasons(result)) {
      const prefix = times > 1 ? `${times}x ` : ""
      lines.push(...wrap(`${prefix}${safe(reason)}`, width, `  ${paint.red("✗")} `, "    "))
    }
    for (const { note, count: times } of notes) {
      const prefix = times > 1 ? `${times}x ` : ""
      lines.push(...wrap(`note: ${prefix}${safe(note)}`, width, `  ${paint.cyan("i")} `, "    "))
    }
    const change = changes.get(resultKey(result.case, result.model))
    if (change && change.toolChanges.length > 0) {
      const what = change.toolChanges.map((tool) => `${tool.id} (${changedParts(tool.diff).join(", ")})`).join(", ")
      const since = `${passRate(change.previous.passed, change.previous.runs)} on ${readableTime(change.previous.startedAt)}`
      lines.push(
        ...wrap(`Changed since the previous run (${since}): ${safe(what)}`, width, "  ", "    ").map(paint.yellow),
      )
    }
  }

  const moved = run.results.flatMap((result) => {
    const change = changes.get(resultKey(result.case, result.model))
    return change && rateChanged(result, change) ? [{ result, change }] : []
  })
  if (moved.length > 0) lines.push("", paint.bold("Pass rates since the previous run"))
  for (const { result, change } of moved) {
    const sentence = `${safe(result.case)} on ${safe(result.model)}: ${significanceSentence(result, change)}`
    const painter = change.significance.beyondNoise ? paint.yellow : (text: string) => text
    lines.push(...wrap(sentence, width, "  ", "    ").map(painter))
  }

  const arms = armLines(compareArms(fullRun.results))
  if (arms.variants.length > 0)
    lines.push("", paint.bold("Variants side by side (the same cases on other descriptions)"))
  for (const line of arms.variants) lines.push(...wrap(safe(line), width, "  ", "    "))
  if (arms.without.length > 0)
    lines.push("", paint.bold("With and without (the tool removed from what the model is offered)"))
  for (const line of arms.without) lines.push(...wrap(safe(line), width, "  ", "    "))

  lines.push(...toolDiffs(run.results, changes, width, paint))
  return `${lines.join("\n")}\n`
}

// --- internal ---

const HEADINGS = ["case / model", "passed (95%)", "vs previous", "tokens", "cost", "time/run"] as const
const NUMERIC = new Set([1, 3, 4, 5])
/** Which column narrows first when the table is too wide (its text wraps), and down to what: vs previous, then model. */
const SHRINK_ORDER: Array<[number, number]> = [
  [2, 20],
  [0, 16],
  [2, 12],
  [0, 10],
]
const GAP = "  "
const INDENT = "  "

function table(results: EvalResult[], changes: Map<string, ResultChange>, width: number, paint: Palette): string[] {
  const rows = results.map((result) => [
    safe(result.model),
    passRateWithInterval(result),
    safe(changeSummary(result, changes.get(resultKey(result.case, result.model)))),
    formatTokens(result.tokens),
    formatCost(result.cost),
    formatSeconds(meanTrialTime(result)),
  ])
  // Tokens and cost only when some provider reported them.
  const columns = HEADINGS.map((_, column) => column).filter(
    (column) => (column !== 3 && column !== 4) || rows.some((row) => row[column] !== "-"),
  )
  const widths = new Map(
    columns.map((column) => {
      const indent = column === 0 ? INDENT.length : 0
      return [column, Math.max(length(HEADINGS[column]), ...rows.map((row) => indent + length(row[column])))]
    }),
  )
  const total = () => [...widths.values()].reduce((sum, value) => sum + value, 0) + GAP.length * (widths.size - 1)
  for (const [column, minimum] of SHRINK_ORDER) {
    const current = widths.get(column)
    if (current === undefined || total() <= width) continue
    widths.set(column, Math.max(Math.min(minimum, current), current - (total() - width)))
  }
  const line = (cells: string[][], painters: Array<Paint | undefined>) => {
    const height = Math.max(...cells.map((cell) => cell.length))
    const lines: string[] = []
    for (let index = 0; index < height; index++) {
      const parts = columns.map((column, position) => {
        const size = widths.get(column) ?? 0
        const text = cells[position]?.[index] ?? ""
        const padded = NUMERIC.has(column) ? text.padStart(size) : text + " ".repeat(Math.max(0, size - length(text)))
        const painter = painters[position]
        return painter && text !== "" ? painter(padded) : padded
      })
      lines.push(parts.join(GAP).trimEnd())
    }
    return lines
  }
  const lines = line(
    columns.map((column) => [HEADINGS[column] ?? ""]),
    columns.map(() => paint.dim),
  )
  let caseName: string | undefined
  results.forEach((result, index) => {
    if (result.case !== caseName) {
      caseName = result.case
      lines.push(...wrap(safe(result.case), width, "", INDENT).map(paint.bold))
    }
    const row = rows[index] ?? []
    const cells = columns.map((column) => {
      const text = row[column] ?? ""
      const size = widths.get(column) ?? 0
      if (column === 0) return wrap(text, size, INDENT, INDENT + INDENT)
      return column === 2 ? wrap(text, size, "", "") : [text]
    })
    const rate = result.passed === result.runs ? paint.green : result.passed === 0 ? paint.red : paint.yellow
    lines.push(
      ...line(
        cells,
        columns.map((column) => (column === 1 ? rate : undefined)),
      ),
    )
  })
  return lines
}

/** Each tool change once (the same edit shows in every case x model that names the tool), with its diff. */
function toolDiffs(results: EvalResult[], changes: Map<string, ResultChange>, width: number, paint: Palette): string[] {
  const seen = new Set<string>()
  const lines: string[] = []
  for (const result of results) {
    const change = changes.get(resultKey(result.case, result.model))
    for (const tool of change?.toolChanges ?? []) {
      const key = `${tool.id}\u0000${tool.diff}`
      if (seen.has(key)) continue
      seen.add(key)
      if (lines.length === 0) lines.push("", paint.bold("Tools changed since the previous run"))
      const since = change ? ` ${paint.dim(`(since ${readableTime(change.previous.startedAt)})`)}` : ""
      lines.push(`  ${paint.bold(safe(tool.id))}${since}`)
      for (const diffLine of tool.diff.split("\n")) {
        const painted = diffLine.startsWith("+ ")
          ? paint.green
          : diffLine.startsWith("- ")
            ? paint.red
            : diffLine === "description" || diffLine === "parameters"
              ? paint.cyan
              : paint.dim
        for (const part of wrap(safe(diffLine), width, "    ", "      ")) lines.push(painted(part))
      }
    }
  }
  return lines
}

function totalsLine(
  label: string,
  counts: Array<[string, { passed: number; runs: number; interval: { low: number; high: number } }]>,
  width: number,
): string[] {
  const parts = counts.map(([name, count]) => `${safe(name)} ${passRateWithInterval(count)}`)
  return wrap(`${label}: ${parts.join(", ")}`, width, "", "  ")
}

function safe(text: string): string {
  // One line each: a newline in a model's text would break the table.
  return terminalSafe(text).replace(/\t/g, " ").replace(/\n/g, "\\n")
}

function length(text: string | undefined): number {
  return [...(text ?? "")].length
}

/** `text` broken at spaces (or anywhere, for a word too long) into lines no wider than `width`, the first after `first`, the rest after `rest`. */
function wrap(text: string, width: number, first: string, rest: string): string[] {
  const lines: string[] = []
  let prefix = first
  let remaining = [...text]
  while (remaining.length > 0) {
    const room = Math.max(1, width - length(prefix))
    if (remaining.length <= room) {
      lines.push(prefix + remaining.join(""))
      break
    }
    let breakAt = remaining.lastIndexOf(" ", room)
    if (breakAt <= 0) breakAt = room
    lines.push((prefix + remaining.slice(0, breakAt).join("")).trimEnd())
    remaining = remaining.slice(breakAt)
    while (remaining[0] === " ") remaining.shift()
    prefix = rest
  }
  return lines.length > 0 ? lines : [first.trimEnd()]
}
