// What the real opencode did with one probe run, in the form of the golden files
// (test/golden/<set>.json): what `tool-tester verify` compares tool-tester with, and what the
// conformance tests replay. Run-specific text is replaced everywhere by placeholders: the
// full-output file path by `<outputPath>`, the project folder by `<directory>`, the throw-away
// home by `<home>`, the rest of the sandbox by `<sandbox>`; error refs by `err_<ref>` and log run
// ids by `run=<id>` only where opencode writes them, never in a tool id (normalise-observed.ts).
import type { CarriedResult } from "../e2e/carried-result.ts"
import type { E2ECall, E2EToolCall } from "../e2e/e2e-result.ts"

/** One call as the golden files record it: an e2e call (e2e/e2e-result.ts) under the golden's names. */
export type ObservedCall = Pick<E2ECall, "turn" | "result" | "status" | "title" | "metadata" | "error" | "input"> & {
  called: E2EToolCall
  ran: E2EToolCall | null
  /**
   * Only in a probe run about attachments: what the request after the call carried of its result
   * (null when none followed).
   */
  carried?: CarriedResult | null
}

export interface ObservedRun {
  name: string
  model: string
  provider: string
  config: Record<string, unknown> | null
  git: boolean
  /** `opencode run --agent`. */
  agent?: string
  /** The kinds of the model requests, in arrival order. */
  requests: string[]
  /** Tool names in the order sent, or null when no main request was made. */
  toolNames: string[] | null
  /** The `tools` array of the first main request, exactly as sent. */
  tools: Array<Record<string, unknown>> | null
  calls: ObservedCall[]
  /** Full outputs of truncated results, in id order. */
  toolOutputFiles: Array<{ bytes: number; sha256: string | null }>
  /** opencode's error events, WARN/ERROR log lines and what else it printed on stderr. */
  errors: Array<{ source: string; message: string }>
  exitCode: number | null
  /** opencode never finished the run: it was stopped at its bound, so the rest is what it had done by then. */
  hung?: boolean
}

/** A golden file: the observed runs of one probe set. */
export interface ObservedSet {
  set: string
  description: string
  /** The engines that can run the set (Bun's API exists only in Bun); every engine when absent. */
  engines?: string[]
  opencodeVersion: string
  runs: ObservedRun[]
}
