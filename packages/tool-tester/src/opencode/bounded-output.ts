// What is kept of opencode's stdout and stderr, bounded: tools run in opencode's process and may
// print without end to both (a gigabyte is bad input like any other), and a string past V8's
// length limit would throw in the middle of the run. stdout keeps opencode's JSON event lines
// alone, each read as it streams; stderr keeps its start and its end, where opencode's errors are.

/** A collector of one stream's text, fed chunk by chunk. */
export interface OutputCollector {
  add(chunk: string): void
  /** The text kept, and how many characters were left out. */
  text(): string
  readonly leftOut: number
}

/** The most characters one kept event line may hold (an attachment's base64 in a tool_use event). */
const MAX_EVENT_LINE = 64 * 1024 * 1024
/** How an event line of `opencode run --format json` starts (JSON.stringify puts `type` first). */
const EVENT_START = '{"type":"'

/**
 * stdout as opencode's event lines alone: a line that does not start as an event does is let go
 * as it streams, never held whole (a tool's own text, its JSON logs, a gigabyte on one line).
 */
export function eventLines(maxLine = MAX_EVENT_LINE): OutputCollector {
  const kept: string[] = []
  let line = ""
  let dropping = false
  let leftOut = 0
  const endLine = (): void => {
    if (!dropping && line.startsWith(EVENT_START)) kept.push(line)
    else leftOut += line.length
    line = ""
    dropping = false
  }
  const take = (piece: string): void => {
    if (dropping) {
      leftOut += piece.length
      return
    }
    line += piece
    const undecided = line.length < EVENT_START.length && EVENT_START.startsWith(line)
    if (undecided) return
    if (!line.startsWith(EVENT_START) || line.length > maxLine) {
      leftOut += line.length
      line = ""
      dropping = true
    }
  }
  return {
    add(chunk) {
      let start = 0
      for (let end = chunk.indexOf("\n"); end !== -1; end = chunk.indexOf("\n", start)) {
        take(chunk.slice(start, end))
        endLine()
        start = end + 1
      }
      if (start < chunk.length) take(chunk.slice(start))
    },
    text() {
      // A last line without its newline: a run that was ended mid-event (parseEvents skips it).
      return [...kept, ...(dropping || line === "" ? [] : [line])].join("\n")
    },
    get leftOut() {
      return leftOut
    },
  }
}

/** The most characters of stderr kept at each end. */
const STDERR_END = 512 * 1024

/** stderr's first and last `end` characters, with a line saying how much is left out between. */
export function headAndTail(end = STDERR_END): OutputCollector {
  let head = ""
  let tail: string[] = []
  let tailLength = 0
  let leftOut = 0
  return {
    add(chunk) {
      if (head.length < end) {
        const room = end - head.length
        head += chunk.slice(0, room)
        chunk = chunk.slice(room)
        if (chunk === "") return
      }
      tail.push(chunk)
      tailLength += chunk.length
      if (tailLength > end * 2) {
        // Kept to `end` now and then, not on every chunk.
        const joined = tail.join("")
        leftOut += joined.length - end
        tail = [joined.slice(-end)]
        tailLength = end
      }
    },
    text() {
      const joined = tail.join("")
      const over = Math.max(0, joined.length - end)
      const shown = joined.slice(over)
      const cut = leftOut + over
      if (cut === 0) return head + shown
      // The cut falls mid-line: the partial lines on each side become whole ones.
      return `${head}\n[${cut} characters of opencode's stderr left out]\n${shown}`
    },
    get leftOut() {
      const over = Math.max(0, tailLength - end)
      return leftOut + over
    },
  }
}
