// What `tool-tester eval` needs of its case files, done in an engine's process: TS and JS case
// files are user code (a default export that may hold RegExps and predicates), and eval imports no
// user code in its own. `eval-cases` reads and checks every case file and answers the cases as JSON
// (src/eval-cases/case-json.ts); `eval-grade` imports the case files again and grades trials of
// their cases there, where the predicates are. A case file that ends or stalls this process is
// named by the Node side (src/eval/project-cases.ts), which leaves it out.
import { definedFields } from "../_defined-fields.ts"
import type { Reached } from "../engine-client/protocol.ts"
import type { EvalCasesInput, EvalGradeInput } from "./task.ts"
import { caseToJson } from "../eval-cases/case-json.ts"
import { gradeTrial } from "../eval-cases/grade-trial.ts"
import { type CaseProblem, loadEvalCases } from "../eval-cases/load-cases.ts"
import type { EvalCase, EvalTrial, TrialGrade } from "../eval-cases/types.ts"

export type EvalCasesPayload = { cases: EvalCase[]; problems: CaseProblem[] }

/** A grade for each trial, in the order given; null when its case is no longer in its file. */
export type EvalGradePayload = { grades: Array<TrialGrade | null> }

export async function evalCasesTask(
  input: EvalCasesInput,
  loaded: (reached: Reached | undefined) => void,
): Promise<EvalCasesPayload> {
  const { cases, problems } = await loadEvalCases(input.directory, {
    skip: input.skip,
    ...definedFields({ toolIds: input.toolIds }),
  })
  loaded(undefined)
  return { cases: cases.map(caseToJson), problems }
}

export async function evalGradeTask(
  input: EvalGradeInput,
  loaded: (reached: Reached | undefined) => void,
): Promise<EvalGradePayload> {
  const { cases } = await loadEvalCases(input.directory, { skip: input.skip })
  // From here on the bound is the grading's: a predicate that loops is stopped from outside.
  loaded(undefined)
  const byName = new Map(cases.map((evalCase) => [evalCase.name, evalCase]))
  return {
    grades: (input.trials as EvalTrial[]).map((trial) => {
      const evalCase = byName.get(trial.case)
      return evalCase === undefined ? null : gradeTrial(evalCase, trial)
    }),
  }
}
