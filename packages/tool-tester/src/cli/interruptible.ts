// What the long commands (e2e, eval, preflight, verify) do around their work, written once: Ctrl-C
// (or SIGTERM) aborts the work's signal, so the work stops what it started and removes its folders
// before the CLI exits; a progress line shows when stderr is a terminal, and off one (a CI log, a
// pipe) a plain line every 10 s of a longer run (plain-progress.ts), with or without --json (which
// changes stdout only, as fuzz's progress does); an interrupted run prints one INTERRUPTED failure
// and exits with the signal's status, after the line is cleared.
import type { CliIO } from "./_command.ts"
import { exitInterrupted, reportFailure } from "./_command.ts"
import { plainProgress } from "./plain-progress.ts"
import { type ProgressLine, terminalProgress } from "./progress-line.ts"

/** What the work is given: the signal that stops it, and the line to show its phases on. */
export type InterruptibleRun = { signal: AbortSignal; progress: ProgressLine }

/**
 * Runs `work`: its value, or the exit code after the INTERRUPTED line (`message`) when the user
 * interrupted it. Any other failure is thrown, with the progress line cleared first.
 */
export async function interruptible<T>(
  io: CliIO,
  json: boolean,
  message: string,
  work: (run: InterruptibleRun) => Promise<T>,
): Promise<{ value: T } | { exitCode: number }> {
  // stdout is the report (with --json the one JSON document) whatever stderr shows, so a person who
  // sends `verify --json` to a file still sees the run go on at the terminal, and a CI log shows a
  // slow opencode is not a hang.
  const progress = io.stderrIsTTY ? terminalProgress(io) : plainProgress(io)
  const controller = new AbortController()
  let interruptedBy: NodeJS.Signals | undefined
  const stopListening = io.onInterrupt((signal) => {
    interruptedBy = signal
    controller.abort()
  })
  try {
    return { value: await work({ signal: controller.signal, progress }) }
  } catch (error) {
    if (!controller.signal.aborted) throw error
    progress.done()
    reportFailure(io, json, { code: "INTERRUPTED", message })
    return { exitCode: exitInterrupted(interruptedBy) }
  } finally {
    progress.done()
    stopListening()
  }
}
