// The cases piece of `tool-tester eval` (docs/evals.md): reading and checking case files, writing
// starter cases, and grading a trial against its case.

export { gradeTrial } from "./grade-trial.ts"
export { loadEvalCases } from "./load-cases.ts"
export { safeFileName, starterCases, writeStarterCases } from "./starter-cases.ts"
