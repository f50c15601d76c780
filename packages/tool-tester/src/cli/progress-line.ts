// One updating line on stderr while something slow happens (e2e's opencode install, its start-up
// phases), for a person at a terminal only: never when stderr is a file or a pipe, never with
// --json, so logs and machine output stay clean.

/** The text of the line: the phase and how long it has taken so far. */
export function formatProgress(phase: string, elapsedMs: number): string {
  const seconds = Math.floor(elapsedMs / 1000)
  return `tool-tester: ${phase}... ${seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, "0")}s`}`
}

export type ProgressLine = {
  /** Shows a new phase on the line (its clock starts again). */
  phase: (text: string) => void
  /** Clears the line, so what is printed next starts on a clean line. */
  done: () => void
}

/** Does nothing: stderr is not a terminal, or the output is JSON. */
export const silentProgress: ProgressLine = { phase: () => {}, done: () => {} }

/**
 * A line on a terminal, redrawn in place (carriage return + erase line) each second and at each
 * phase. `now` and the timer are the clock; the timer never keeps the process alive.
 */
export function terminalProgress(write: (text: string) => void, now: () => number = Date.now): ProgressLine {
  let text: string | undefined
  let started = now()
  let timer: ReturnType<typeof setInterval> | undefined
  const draw = () => {
    if (text !== undefined) write(`\r\u001b[2K${formatProgress(text, now() - started)}`)
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
      if (text !== undefined) write("\r\u001b[2K")
      text = undefined
    },
  }
}
