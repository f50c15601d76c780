// The runner of `tool-tester eval` (docs/evals.md): runs cases through the real opencode and
// returns the trials as opencode recorded them.
export {
  type EvalRunnerOptions,
  type EvalRunnerResult,
  runEvalTrials,
} from "./run-eval.ts"
