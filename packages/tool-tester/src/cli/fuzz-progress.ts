// fuzz's progress while it searches, on stderr only (stdout is the report, byte for byte as without
// it, so --json keeps one JSON document there), as test runners show theirs. A long `--runs` is
// otherwise silent until its report: at a terminal one line is redrawn in place; in CI or a pipe,
// where a redrawn line would pile up, a plain line is written at most every
// TOOL_TESTER_PROGRESS_MS (10 s by default, 0 for none), so a log shows the run is alive without a
// line per call. Never both.
import { terminalSafe } from "../_terminal-safe.ts"
import { count } from "../_count.ts"
import { ToolTesterError } from "../errors.ts"
import type { CliIO } from "./_command.ts"
import { drawnLine, formatProgress } from "./progress-line.ts"

/** How often, at most, the plain line is written when stderr is not a terminal. */
const PLAIN_EVERY_MS = 10_000
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
  const terminal = io.stderrIsTTY
  const everyMs = terminal ? TERMINAL_EVERY_MS : progressEveryMs(io.env)
  if (everyMs === 0) return { update: () => {}, done: () => {} }
  const line = terminal ? drawnLine(io) : undefined
  const started = now()
  // The terminal line shows from the first call; a plain line only once the run has taken a while.
  let lastWritten: number | undefined = line === undefined ? started : undefined
  return {
    update: (calls, failures) => {
      const at = now()
      if (lastWritten !== undefined && at - lastWritten < everyMs) return
      lastWritten = at
      const text = formatProgress(
        `fuzzing ${terminalSafe(tool)}, ${count(calls, "call")} (--runs ${runs}), ${count(failures, "failure")} so far`,
        at - started,
      )
      if (line === undefined) io.writeError(`${text}\n`)
      else line.show(text)
    },
    done: () => line?.clear(),
  }
}

/** TOOL_TESTER_PROGRESS_MS when set (whole milliseconds, 0 for no line), else {@link PLAIN_EVERY_MS}. */
function progressEveryMs(env: Record<string, string | undefined>): number {
  const given = env["TOOL_TESTER_PROGRESS_MS"]
  if (given === undefined || given === "") return PLAIN_EVERY_MS
  if (/^(0|[1-9][0-9]{0,8})$/.test(given)) return Number(given)
  throw new ToolTesterError(
    "USAGE",
    `TOOL_TESTER_PROGRESS_MS is "${given}": give how often fuzz prints its progress in whole milliseconds, from 0 (never) to 999999999 (the default is ${PLAIN_EVERY_MS}), or unset it`,
    { data: { progressMs: given } },
  )
}
