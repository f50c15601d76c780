// Progress for a stderr that is not a terminal (a CI log, a pipe, a file), where a redrawn line
// would pile up: a plain line once the run has lasted TOOL_TESTER_PROGRESS_MS (10 s by default, 0
// for none) and then at most that often, so a log shows a slow run is alive, not hung, without a
// line per step. A run that ends sooner writes nothing. fuzz writes one after a call (fuzz-progress.ts);
// e2e, eval, preflight and verify, whose one step (opencode answering) can last minutes, on a timer
// (interruptible.ts). Only ever on stderr: stdout (with --json, the one JSON document) is the same.
import { ToolTesterError } from "../errors.ts"
import type { CliIO } from "./_command.ts"
import { formatProgress, type ProgressLine, silentProgress } from "./progress-line.ts"

/** How often, at most, a plain line is written unless TOOL_TESTER_PROGRESS_MS says otherwise. */
const PLAIN_EVERY_MS = 10_000
/** How often the timer of {@link plainProgress} looks whether a line is due. */
const TICK_MS = 1_000

/** The plain lines of one run: written only when due. */
export type PlainLines = {
  /** Writes the line `text` gives (told the time now) when the interval has passed since the start or the last line. */
  offer: (text: (at: number) => string) => void
}

/**
 * Plain progress lines on `io`'s stderr for a run starting now, or undefined when
 * TOOL_TESTER_PROGRESS_MS is 0. A bad TOOL_TESTER_PROGRESS_MS is a USAGE error.
 */
export function plainLines(
  io: Pick<CliIO, "env" | "writeError">,
  now: () => number = Date.now,
): PlainLines | undefined {
  const everyMs = progressEveryMs(io.env)
  if (everyMs === 0) return undefined
  let last = now()
  return {
    offer: (text) => {
      const at = now()
      if (at - last < everyMs) return
      last = at
      io.writeError(`${text(at)}\n`)
    },
  }
}

/**
 * The progress of e2e, eval, preflight or verify off a terminal: what the drawn line
 * (progress-line.ts) would show (the phase and how long it has taken), as a plain line when due.
 * A timer looks each second, as nothing else is told while opencode works; it never keeps the
 * process alive, and `done` stops it.
 */
export function plainProgress(io: Pick<CliIO, "env" | "writeError">, now: () => number = Date.now): ProgressLine {
  const lines = plainLines(io, now)
  if (lines === undefined) return silentProgress
  let text: string | undefined
  let started = now()
  const timer = setInterval(() => {
    const phase = text
    if (phase !== undefined) lines.offer((at) => formatProgress(phase, at - started))
  }, TICK_MS)
  timer.unref?.()
  return {
    phase: (next) => {
      text = next
      started = now()
    },
    done: () => {
      clearInterval(timer)
      text = undefined
    },
  }
}

// --- internal ---

/** TOOL_TESTER_PROGRESS_MS when set (whole milliseconds, 0 for no line), else {@link PLAIN_EVERY_MS}. */
function progressEveryMs(env: Record<string, string | undefined>): number {
  const given = env["TOOL_TESTER_PROGRESS_MS"]
  if (given === undefined || given === "") return PLAIN_EVERY_MS
  if (/^(0|[1-9][0-9]{0,8})$/.test(given)) return Number(given)
  throw new ToolTesterError(
    "USAGE",
    `TOOL_TESTER_PROGRESS_MS is "${given}": give how often tool-tester prints its progress off a terminal in whole milliseconds, from 0 (never) to 999999999 (the default is ${PLAIN_EVERY_MS}), or unset it`,
    { data: { progressMs: given } },
  )
}
