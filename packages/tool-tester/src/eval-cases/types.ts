// The shapes of an eval's cases (docs/evals.md), types only: a case as users write it, one trial (one
// run of one case on one model, as observed in opencode), and its grade. Cases are read and graded
// in an engine's process (tasks/eval-cases-task.ts) and run by eval/, which both speak these.

/** A value an argument must have: JSON-like values match exactly (objects partially, see below). */
export type ValueMatcher =
  | string
  | number
  | boolean
  | null
  | ValueMatcher[]
  | RegExp
  | { $regex: string; $flags?: string }
  | { $exact: unknown }
  | { $any: true }
  | ((value: unknown) => boolean)
  | { [key: string]: ValueMatcher }

/**
 * The arguments of an expected call. An object matches partially: the keys it lists must match,
 * others are free; nested objects likewise; arrays match element by element, lengths equal.
 * `{ "$regex": "^par", "$flags": "i" }` (or a RegExp in a TS case file) matches a string,
 * `{ "$exact": value }` matches by deep equality (no extra keys), `{ "$any": true }` any value
 * that is present, and a function (TS case files) is a predicate given the whole value. A predicate
 * returns true or false: anything else (a string, an object, undefined, a Promise) fails the grade,
 * saying what it returned.
 */
export type ArgsMatcher = { [key: string]: ValueMatcher } | ((args: Record<string, unknown>) => boolean)

export interface ExpectedCall {
  /** The tool id as opencode names it (`weather`, `math_add`, or a built-in such as `read`). */
  tool: string
  args?: ArgsMatcher
}

export interface Expectation {
  /** Calls that must each be made in the turn (each matched by a different call). */
  calls?: ExpectedCall[]
  /** The expected calls must be made in this order (other calls may come between). */
  ordered?: boolean
  /** Tool ids that must not be called in the turn. `"*"` means any tool not in `calls`. */
  notCalled?: string[]
}

/** What a trial (set on the case) or one turn (set on a turn) may spend; over it, the trial fails with the figure. */
export interface Budget {
  /** Every token the assistant's messages used (input, output, reasoning, cache). */
  maxTokens?: number
  /** In USD, as opencode computes it from the model's prices. */
  maxCost?: number
  /** Wall time, in milliseconds. */
  maxMs?: number
}

export interface EvalTurn extends Budget {
  prompt: string
  expect?: Expectation
}

/** One case, as written in `.opencode/evals/*.json` or a TS/JS case file. Its budget (`maxTokens`, `maxCost`, `maxMs`) bounds each whole trial. */
export interface EvalCase extends Budget {
  /** Unique in the project; the history is keyed by it. */
  name: string
  /** The first user message. */
  prompt: string
  /** What the first turn must do. */
  expect?: Expectation
  /** Follow-up user messages, in the same session, each with its own expectation. */
  turns?: EvalTurn[]
  /** How many times to run the case on each model (default: the CLI's `--runs`, else 1). */
  runs?: number
  /** The opencode agent to prompt (default: the CLI's `--agent`, else opencode's default). */
  agent?: string
  /**
   * What a call of one of the project's tools returns instead of running it, by tool id. Tools not
   * listed get a stand-in result that says the call was recorded and not run.
   */
  results?: Record<string, string>
  /** Run these of the project's tools for real (`true`: all of them). Default: none. */
  execute?: boolean | string[]
  /** Tool calls in one turn after which the model is stopped and the trial graded as a loop (default 10). */
  maxCalls?: number
  /** Where the case was read (set by the loader). */
  source?: { file: string; line?: number }
}

/** A tool call as opencode recorded it in the session. */
export interface ObservedCall {
  tool: string
  args: unknown
  /** opencode's state of the tool part. */
  status: "completed" | "error" | "pending" | "running"
  output?: string
  error?: string
}

export interface TurnRecord {
  prompt: string
  calls: ObservedCall[]
  /** The assistant's text in the turn. */
  text: string
  /** What the turn's assistant messages used, when the provider reported it. */
  tokens?: TokenUsage
  cost?: number
  /** The turn's wall time. */
  durationMs?: number
}

export interface TokenUsage {
  input: number
  output: number
  reasoning: number
  cacheRead: number
  cacheWrite: number
}

/** Why a trial ended other than by the model finishing its turns. */
export interface TrialError {
  /** `PROVIDER_ERROR` (the provider's own message), `AUTH_ERROR`, `RATE_LIMITED`, `LOOP`, `TIMEOUT`, `OPENCODE_FAILED`, `OPENCODE_EXITED`, ... */
  code: string
  message: string
}

/** One run of one case on one model. */
export interface EvalTrial {
  case: string
  /** The arm it ran in, when not the normal run: a variant's name, or `without <tool>`. */
  arm?: string
  /** `provider/model`. */
  model: string
  /** 1-based. */
  run: number
  turns: TurnRecord[]
  error?: TrialError
  tokens?: TokenUsage
  /** In USD, as opencode computed it from the provider's prices; absent when unknown. */
  cost?: number
  durationMs: number
}

export interface TrialGrade {
  pass: boolean
  /** Why it failed, one line each ("expected weather({city: "Paris"}); called bash({...})"). */
  reasons: string[]
  /** What the reader should know that did not fail the trial (a denied built-in the model called, a budget not checked). */
  notes?: string[]
}

/** A tool as the model was offered it, kept so two runs can be compared. */
export interface ToolSnapshot {
  id: string
  description: string
  /** The JSON Schema of its arguments as opencode sends it. */
  parameters: unknown
}
