// fuzz's progress while it searches, on stderr only (stdout is the report, byte for byte as without
// it, so --json keeps one JSON document there), as test runners show theirs. A long `--runs` is
// otherwise silent until its report: at a terminal one line is redrawn in place; in CI or a pipe,
// where a redrawn line would pile up, a plain line after a call when one is due (plain-progress.ts),
// so a log shows the run is alive without a line per call. Never both.
import { terminalSafe } from "../_terminal-safe.ts"
import { count } from "../_count.ts"
import type { CliIO } from "./_command.ts"
import { plainLines } from "./plain-progress.ts"
import { drawnLine, formatProgress } from "./progress-line.ts"

/** How often, at most, the terminal line is redrawn after it is first drawn (at the first call). */
const TERMINAL_EVERY_MS = 1_000

export type FuzzProgressLine = {
  /** The search so far: calls made (shrinking and searches after a restart included), distinct failures found. */
  update: (calls: number, failures: number) => void
  /** Clears the terminal line, so the report starts on a clean line. */
  done: () => void
}

/**
 * The progress of fuzzing `tool` with `runs` runs, written on `io`'s stderr as it suits it, with
 * or without --json (which changes stdout only).
 */
export function fuzzProgress(io: CliIO, tool: string, runs: number, now: () => number = Date.now): FuzzProgressLine {
  const text = (calls: number, failures: number, elapsedMs: number) =>
    formatProgress(
      `fuzzing ${terminalSafe(tool)}, ${count(calls, "call")} (--runs ${runs}), ${count(failures, "failure")} so far`,
      elapsedMs,
    )
  const started = now()
  if (!io.stderrIsTTY) {
    const plain = plainLines(io, now)
    return { update: (calls, failures) => plain?.offer((at) => text(calls, failures, at - started)), done: () => {} }
  }
  const line = drawnLine(io)
  // The terminal line shows from the first call.
  let lastWritten: number | undefined
  return {
    update: (calls, failures) => {
      const at = now()
      if (lastWritten !== undefined && at - lastWritten < TERMINAL_EVERY_MS) return
      lastWritten = at
      line.show(text(calls, failures, at - started))
    },
    done: () => line.clear(),
  }
}
