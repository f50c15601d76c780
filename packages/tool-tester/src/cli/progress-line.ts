// One updating line on stderr while something slow happens (e2e's opencode install, its start-up
// phases, fuzz's search), for a person at a terminal only: never when stderr is a file or a pipe,
// so logs stay clean (they get a plain line now and then instead: plain-progress.ts). While the
// line is shown, every other line the command writes on stderr (an opencode server log line with
// --verbose, a warning) erases it first and draws it again below itself, so the two never share a
// line; so does a warning Node prints there itself (node-warnings.ts).
import type { CliIO } from "./_command.ts"

/** Carriage return + erase the whole line: the cursor is back at the start of an empty line. */
const ERASE_LINE = "\r\u001b[2K"

/** The text of the line: the phase and how long it has taken so far. */
export function formatProgress(phase: string, elapsedMs: number): string {
  const seconds = Math.floor(elapsedMs / 1000)
  return `tool-tester: ${phase}... ${seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, "0")}s`}`
}

/** The line itself, at the foot of the terminal: shown (redrawn in place) and cleared. */
export type DrawnLine = {
  /** Draws `text` in place of what the line showed. */
  show: (text: string) => void
  /** Erases the line, so what is printed next starts on a clean line. */
  clear: () => void
}

/**
 * A line drawn on `io`'s stderr. While it is shown, `io.writeError` is wrapped (and given back by
 * `clear`): whatever the command writes there erases the line first and, once that text has ended
 * its own line, the line is drawn again after it. Text that does not end its line (a partial
 * write) leaves the line undrawn until the write that ends it. A warning Node prints on stderr
 * itself (`io.aroundWarnings`, the bin's own process only) is put above it the same way.
 */
export function drawnLine(io: Pick<CliIO, "writeError" | "aroundWarnings">): DrawnLine {
  const write = io.writeError
  let shown: string | undefined
  // A write through the wrapper left the cursor mid-line: drawing now would join that line.
  let midLine = false
  // Node prints a warning on stderr itself, between these two: the line erased, then drawn again.
  let erasedForWarning = false
  const hooks = {
    before: () => {
      erasedForWarning = shown !== undefined && !midLine
      if (erasedForWarning) write(ERASE_LINE)
    },
    after: () => {
      if (erasedForWarning && shown !== undefined) write(shown)
      erasedForWarning = false
    },
  }
  let stopHooks: (() => void) | undefined
  const above = (text: string) => {
    if (text === "") return
    const erase = shown !== undefined && !midLine ? ERASE_LINE : ""
    midLine = !text.endsWith("\n")
    write(`${erase}${text}${shown !== undefined && !midLine ? shown : ""}`)
  }
  return {
    show: (text) => {
      shown = text
      io.writeError = above
      stopHooks ??= io.aroundWarnings?.(hooks)
      if (!midLine) write(`${ERASE_LINE}${text}`)
    },
    clear: () => {
      if (shown !== undefined && !midLine) write(ERASE_LINE)
      shown = undefined
      if (io.writeError === above) io.writeError = write
      stopHooks?.()
      stopHooks = undefined
    },
  }
}

export type ProgressLine = {
  /** Shows a new phase on the line (its clock starts again). */
  phase: (text: string) => void
  /** Clears the line, so what is printed next starts on a clean line. */
  done: () => void
}

/** Does nothing: off a terminal with TOOL_TESTER_PROGRESS_MS=0 (plain-progress.ts). */
export const silentProgress: ProgressLine = { phase: () => {}, done: () => {} }

/**
 * A {@link drawnLine} on `io`'s stderr, redrawn each second and at each phase. `now` and the timer
 * are the clock; the timer never keeps the process alive.
 */
export function terminalProgress(
  io: Pick<CliIO, "writeError" | "aroundWarnings">,
  now: () => number = Date.now,
): ProgressLine {
  const line = drawnLine(io)
  let text: string | undefined
  let started = now()
  let timer: ReturnType<typeof setInterval> | undefined
  const draw = () => {
    if (text !== undefined) line.show(formatProgress(text, now() - started))
  }
  return {
    phase: (next) => {
      text = next
      started = now()
      draw()
      if (timer === undefined) {
        timer = setInterval(draw, 1000)
        timer.unref?.()
      }
    },
    done: () => {
      if (timer !== undefined) clearInterval(timer)
      timer = undefined
      if (text !== undefined) line.clear()
      text = undefined
    },
  }
}
