// The report of `tool-tester eval` (docs/evals.md): trials summarised per case x model, the
// history file and the comparison with the previous run, the terminal table and the HTML page.

export type { ArmComparisons, VariantComparison, WithoutComparison } from "./arms.ts"
export { compareArms, normalResults, WITHOUT_PREFIX, whatItDid } from "./arms.ts"
export { compareWithPrevious, toolChanges } from "./compare.ts"
export type { EvalTableOptions } from "./format-table.ts"
export { formatEvalTable } from "./format-table.ts"
export { appendHistory, defaultHistoryFile, HISTORY_LIMITS, historyEntry, readHistory } from "./history.ts"
export { renderEvalHtml, TREND_LENGTH } from "./render-html.ts"
export { changeSignificance, fisherExact, intervalsApart, runsToTell, wilsonInterval } from "./statistics.ts"
export { namedToolIds, passCount, resultKey, summarizeTrials, totalsOf } from "./summarize.ts"
