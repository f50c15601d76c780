// The eval report as one self-contained HTML page (`tool-tester eval --html FILE`): a table of
// cases x models whose cells show the pass rate, the change since the previous run and a trend of
// the last runs, each opening to its trials and the diff of the tools that changed. Inline CSS, no
// script, no request to anywhere (a Content-Security-Policy says so); every text is escaped, since
// what models write is untrusted.

import type { EvalTrial } from "../../eval-cases/types.ts"
import type { EvalResult, EvalRun, GradedTrial, HistoryEntry, ResultChange } from "../types.ts"
import { clip, escapeHtml, showValue } from "./_html.ts"
import {
  budgetSummary,
  changeSummary,
  failureReasons,
  formatCost,
  formatSeconds,
  formatInterval,
  formatTokens,
  meanTrialTime,
  passRate,
  passRateWithInterval,
  readableTime,
  significanceSentence,
  trialNotes,
} from "./_format.ts"
import { PAGE_STYLE } from "./_page-style.ts"
import { armLines, compareArms, normalResults } from "./arms.ts"
import { resultKey, totalsOf } from "./summarize.ts"

/** Runs the trend of a cell shows (the current one included). */
const TREND_LENGTH = 10

/**
 * Whether `text`, the start of a file, is a page renderEvalHtml wrote (its title says so), which
 * `--html` may replace; any other file is the user's.
 */
export function isEvalReportText(text: string): boolean {
  return /^<!doctype html>/i.test(text) && text.includes("<title>tool-tester eval: ")
}

export function renderEvalHtml(fullRun: EvalRun, changes: Map<string, ResultChange>, history: HistoryEntry[]): string {
  // The matrix is the normal run; variants and --without runs come below it, side by side.
  const run = { ...fullRun, results: normalResults(fullRun.results) }
  const arms = armLines(compareArms(fullRun.results))
  const armSection = (title: string, lines: string[]) =>
    lines.length === 0
      ? ""
      : `<section><h2>${title}</h2><ul class="arms">${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join("")}</ul></section>`
  const cases = unique(run.results.map((result) => result.case))
  const models = unique(run.results.map((result) => result.model))
  const byKey = new Map(run.results.map((result) => [resultKey(result.case, result.model), result]))
  const totals = totalsOf(run.results)
  const trials = totals.total.runs
  const passed = totals.total.passed
  const perfect = run.results.filter((result) => result.passed === result.runs).length
  const title = `tool-tester eval: ${passed}/${trials} trials passed (${readableTime(run.startedAt)})`

  const rows = cases.map((caseName) => {
    const prompt = run.results
      .filter((result) => result.case === caseName)
      .flatMap((result) => result.trials)
      .find((trial) => trial.turns[0] !== undefined)?.turns[0]?.prompt
    const header = `<th scope="row"><span class="case">${escapeHtml(caseName)}</span>${
      prompt === undefined ? "" : `<span class="prompt">${escapeHtml(clip(prompt, 200))}</span>`
    }</th>`
    const cells = models.map((model) => {
      const key = resultKey(caseName, model)
      const result = byKey.get(key)
      if (!result) return `<td class="cell"><span class="rate rate-none">not run</span></td>`
      return `<td class="cell">${cell(result, changes.get(key), trend(result, history, run.id))}</td>`
    })
    return `<tr>${header}${cells.join("")}</tr>`
  })

  const body =
    run.results.length === 0
      ? `<p>No case ran.</p>`
      : `<div class="scroll"><table class="matrix">
<caption>Pass rate of each case on each model. Open a cell for its trials and what changed since the previous run.</caption>
<thead><tr><th scope="col">Case</th>${models.map((model) => `<th scope="col">${escapeHtml(model)}</th>`).join("")}</tr></thead>
<tbody>
${rows.join("\n")}
</tbody>
<tfoot><tr><th scope="row">All cases</th>${totals.byModel
          .map(
            (count) =>
              `<td><span class="rate ${rateClass(count.passed, count.runs)}">${passRate(count.passed, count.runs)}</span> <span class="interval">${formatInterval(count.interval)}</span></td>`,
          )
          .join("")}</tr></tfoot>
</table></div>
${totals.byCase.length > 1 && models.length > 1 ? `<p class="muted">By case, on every model: ${totals.byCase.map((count) => `<code>${escapeHtml(count.case)}</code> ${passRateWithInterval(count)}`).join(", ")}.</p>` : ""}
<p class="legend"><span class="rate rate-pass">all</span> every run passed <span class="rate rate-some">some</span> some runs passed <span class="rate rate-fail">none</span> no run passed. Beside each pass rate, its 95% interval (Wilson): where the true rate lies given this few runs.</p>
<p class="legend">Trend bars show the last ${TREND_LENGTH} runs, oldest first: <svg class="trend" role="img" aria-label="a bar of 3 passed out of 4" width="6" height="18" viewBox="0 0 6 18"><rect x="0" y="0" width="6" height="18" class="failed"/><rect x="0" y="5" width="6" height="13" class="passed"/></svg> the <span class="bar-pass">lower, green part</span> is the share that passed, the <span class="bar-fail">upper, red part</span> the share that failed.</p>`

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(title)}</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<header>
<h1>tool-tester eval</h1>
<p class="meta">Run <code>${escapeHtml(run.id)}</code>, started ${timeElement(run.startedAt)}, took ${formatSeconds(run.durationMs)}${
    run.opencodeVersion ? `, opencode ${escapeHtml(run.opencodeVersion)}` : ""
  }.</p>
<p class="totals">${passed}/${trials} trials passed (95% interval ${formatInterval(totals.total.interval)}); ${perfect} of ${run.results.length} case &times; model passed every run.</p>
</header>
<main>
${body}
${armSection("Variants side by side (the same cases on other descriptions)", arms.variants)}
${armSection("With and without (the tool removed from what the model is offered)", arms.without)}
</main>
</body>
</html>
`
}

// --- internal ---

function cell(result: EvalResult, change: ResultChange | undefined, trendSvg: string): string {
  const rate = passRate(result.passed, result.runs)
  const summary = `<summary><span class="rate ${rateClass(result.passed, result.runs)}">${rate}</span> <span class="interval" title="95% interval">${formatInterval(result.interval)}</span>${
    change ? ` <span class="was">${escapeHtml(changeSummary(result, change))}</span>` : ` <span class="was">new</span>`
  }${trendSvg}</summary>`
  const spent = [
    result.tokens ? `${formatTokens(result.tokens)} tokens` : "tokens not reported",
    result.cost === undefined ? "cost not reported" : formatCost(result.cost),
    `${formatSeconds(meanTrialTime(result))} per run`,
  ]
  const budget = budgetSummary(result)
  if (budget !== "") spent.push(escapeHtml(budget))
  const figures = `<p class="figures">${spent.join(" &middot; ")}</p>`
  const notes = trialNotes(result)
  const noteList =
    notes.length === 0
      ? ""
      : `<h3>Notes (did not fail a trial)</h3><ul class="reasons">${notes
          .map(
            ({ note, count }) =>
              `<li>${count > 1 ? `<span class="count">${count}&times;</span> ` : ""}${escapeHtml(note)}</li>`,
          )
          .join("")}</ul>`
  const reasons = failureReasons(result)
  const reasonList =
    reasons.length === 0
      ? ""
      : `<h3>Why it failed</h3><ul class="reasons">${reasons
          .map(
            ({ reason, count }) =>
              `<li>${count > 1 ? `<span class="count">${count}&times;</span> ` : ""}${escapeHtml(reason)}</li>`,
          )
          .join("")}</ul>`
  return `<details>${summary}<div class="cell-body">${figures}${changeSection(result, change)}${reasonList}${noteList}<h3>Trials</h3><ol class="trials">${result.trials
    .map(trialItem)
    .join("")}</ol></div></details>`
}

function changeSection(result: EvalResult, change: ResultChange | undefined): string {
  if (!change) return `<p class="muted">No earlier run of this case on this model in the history.</p>`
  const previous = `<p>Previous run: ${passRate(change.previous.passed, change.previous.runs)} on ${timeElement(change.previous.startedAt)}. ${escapeHtml(significanceSentence(result, change))}</p>`
  if (change.toolChanges.length === 0)
    return `${previous}<p class="muted">The tools it names are as they were then.</p>`
  const diffs = change.toolChanges
    .map(
      (tool) =>
        `<h4>${escapeHtml(tool.id)}</h4><pre class="diff">${tool.diff.split("\n").map(diffLine).join("\n")}</pre>`,
    )
    .join("")
  return `${previous}<h3>Tools changed since then</h3>${diffs}`
}

function diffLine(line: string): string {
  if (line.startsWith("+ ")) return `<ins>${escapeHtml(line)}</ins>`
  if (line.startsWith("- ")) return `<del>${escapeHtml(line)}</del>`
  if (line === "description" || line === "parameters") return `<strong>${line}</strong>`
  return escapeHtml(line)
}

function trialItem(trial: GradedTrial): string {
  const status = trial.grade.pass ? `<span class="ok">passed</span>` : `<span class="bad">failed</span>`
  const tokens = trial.tokens ? ` &middot; ${formatTokens(trial.tokens)} tokens` : ""
  const cost = trial.cost === undefined ? "" : ` &middot; ${formatCost(trial.cost)}`
  const head = `<summary class="trial-head">Run ${trial.run}: ${status} &middot; ${formatSeconds(trial.durationMs)}${tokens}${cost}</summary>`
  // The error is shown whole below: the reason that states it would say it twice.
  const shown = trial.error
    ? trial.grade.reasons.filter((reason) => !reason.startsWith(`${trial.error?.code}: `))
    : trial.grade.reasons
  const reasons =
    shown.length === 0
      ? ""
      : `<ul class="reasons">${shown.map((reason) => `<li>${escapeHtml(reason)}</li>`).join("")}</ul>`
  const trialNoteList =
    (trial.grade.notes ?? []).length === 0
      ? ""
      : `<ul class="notes">${(trial.grade.notes ?? []).map((note) => `<li>note: ${escapeHtml(note)}</li>`).join("")}</ul>`
  const error = trial.error
    ? `<p class="error"><strong>${escapeHtml(trial.error.code)}</strong>: ${escapeHtml(clip(trial.error.message, 2000))}</p>`
    : ""
  // A failed trial is what the reader came for: open; a passed one is there to compare with.
  return `<li><details${trial.grade.pass ? "" : " open"}>${head}${reasons}${trialNoteList}${error}${turns(trial)}</details></li>`
}

function turns(trial: EvalTrial): string {
  return trial.turns
    .map((turn, index) => {
      const prompt =
        trial.turns.length > 1 ? `<p class="turn">Turn ${index + 1}: ${escapeHtml(clip(turn.prompt, 500))}</p>` : ""
      const calls =
        turn.calls.length === 0
          ? `<p class="muted">No tool call.</p>`
          : `<ul class="calls">${turn.calls
              .map((call) => {
                const result =
                  call.error !== undefined
                    ? `<pre class="output bad">${escapeHtml(clip(call.error, 2000))}</pre>`
                    : call.output !== undefined
                      ? `<pre class="output">${escapeHtml(clip(call.output, 2000))}</pre>`
                      : ""
                return `<li><code class="call">${escapeHtml(call.tool)}</code> <span class="status">${escapeHtml(call.status)}</span><pre class="args">${escapeHtml(clip(showValue(call.args), 4000))}</pre>${result}</li>`
              })
              .join("")}</ul>`
      const text =
        turn.text.trim() === ""
          ? ""
          : `<p class="label">The model's answer</p><pre class="text">${escapeHtml(clip(turn.text, 4000))}</pre>`
      return `${prompt}${calls}${text}`
    })
    .join("")
}

/** An SVG of the last runs' pass rates of a case on a model: one bar each, oldest first. */
function trend(result: EvalResult, history: HistoryEntry[], runId: string): string {
  const earlier = history
    .map((entry, index) => ({ entry, index, time: Date.parse(entry.startedAt) }))
    .filter(({ entry }) => entry.case === result.case && entry.model === result.model && entry.runId !== runId)
    .sort((a, b) => (a.time || 0) - (b.time || 0) || a.index - b.index)
    .map(({ entry }) => ({ passed: entry.passed, runs: entry.runs }))
  const points = [...earlier, { passed: result.passed, runs: result.runs }].slice(-TREND_LENGTH)
  if (points.length < 2) return ""
  const barWidth = 6
  const gap = 2
  const height = 18
  const bars = points
    .map((point, index) => {
      const x = index * (barWidth + gap)
      // No runs: an empty track. Else the failed share in the failure colour above the passed share.
      if (point.runs === 0) return `<rect x="${x}" y="0" width="${barWidth}" height="${height}" class="track"/>`
      const barHeight = Math.round((point.passed / point.runs) * height)
      return `<rect x="${x}" y="0" width="${barWidth}" height="${height}" class="failed"/><rect x="${x}" y="${height - barHeight}" width="${barWidth}" height="${barHeight}" class="passed"/>`
    })
    .join("")
  const label = `Pass rate of the last ${points.length} runs, oldest first: ${points.map((point) => passRate(point.passed, point.runs)).join(", ")}`
  return ` <svg class="trend" role="img" aria-label="${escapeHtml(label)}" width="${points.length * (barWidth + gap) - gap}" height="${height}" viewBox="0 0 ${points.length * (barWidth + gap) - gap} ${height}"><title>${escapeHtml(label)}</title>${bars}</svg>`
}

function rateClass(passed: number, runs: number): string {
  if (runs === 0) return "rate-none"
  if (passed === runs) return "rate-pass"
  return passed === 0 ? "rate-fail" : "rate-some"
}

/** A `<time>` when the text is a time (a history line may hold anything), else the text. */
function timeElement(iso: string): string {
  const time = Date.parse(iso)
  if (Number.isNaN(time)) return escapeHtml(iso)
  return `<time datetime="${new Date(time).toISOString()}">${escapeHtml(readableTime(iso))}</time>`
}

function unique(values: string[]): string[] {
  return [...new Set(values)]
}
