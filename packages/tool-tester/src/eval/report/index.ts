// The report of `tool-tester eval` (docs/evals.md): trials summarised per case x model, the
// history file and the comparison with the previous run, the terminal table and the HTML page.

export { compareArms, normalResults, WITHOUT_PREFIX } from "./arms.ts"
export { compareWithPrevious } from "./compare.ts"
export { formatEvalTable } from "./format-table.ts"
export {
  appendHistory,
  defaultHistoryFile,
  HISTORY_LIMITS,
  historyEntry,
  isHistoryText,
  readHistory,
} from "./history.ts"
export { isEvalReportText, renderEvalHtml } from "./render-html.ts"
export { changeSignificance, fisherExact, runsToTell, wilsonInterval } from "./statistics.ts"
export { namedToolIds, resultKey, summarizeTrials, totalsOf } from "./summarize.ts"
