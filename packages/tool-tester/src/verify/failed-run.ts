// A probe run `tool-tester verify` could not compare: one side could not start or crashed (an
// opencode that could not be spawned, an engine that would not come up, an unexpected error). It is
// reported on its own, with its reason, and the other runs are still compared (docs/cli.md#verify).
import { ToolTesterError } from "../errors.ts"

/** A probe run one side of which failed before it could be compared. */
export interface FailedRun {
  /** Probe set and run. */
  set: string
  run: string
  /** The side that failed: opencode's run, or tool-tester's replay of it. */
  side: "opencode" | "tool-tester"
  /** The error's code; INTERNAL for an error without one. */
  code: string
  /** What was wrong and what to do, on one line. */
  message: string
}

/** The failed run from what one side threw. */
export function failedRun(where: Pick<FailedRun, "set" | "run" | "side">, error: unknown): FailedRun {
  const coded = ToolTesterError.isInstance(error)
  const message = (coded || error instanceof Error ? (error as Error).message : String(error))
    .replace(/\s*\n\s*/g, " ")
    .trim()
  const code = coded ? error.code : "INTERNAL"
  // The engine's own advice names the other commands' --engine flags, which verify does not take.
  const engine = where.side === "tool-tester" && ENGINE_CODES.has(code) ? ` (${verifyEngine})` : ""
  return { ...where, code, message: `${message || "it failed without a message"}${engine}` }
}

// --- internal ---

const ENGINE_CODES = new Set(["ENGINE_FAILED", "ENGINE_NOT_FOUND"])

const verifyEngine =
  "verify takes no --engine or --engine-binary: it runs tool-tester's side in the opencode binary's own Bun, so check that it still runs, then run this set again"
