// The cases piece of `tool-tester eval` (docs/evals.md): reading and checking case files, writing
// starter cases, and grading a trial against its case.
export type { CaseProblem, LoadEvalCasesOptions } from "./load-cases.ts"
export { DEFAULT_EVALS_FOLDER, loadEvalCases } from "./load-cases.ts"
export { gradeBudgets } from "./grade-budget.ts"
export { gradeTrial } from "./grade-trial.ts"
export { safeFileName, starterCases, writeStarterCases } from "./starter-cases.ts"
