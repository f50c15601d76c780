// What an engine's process prints, read from its stdout and stderr pipes: the first CAPTURE_LIMIT
// bytes of each are kept, the rest only counted, so a tool that prints a gigabyte costs the time to
// read it and no memory.
import type { Readable } from "node:stream"

/** Bytes kept per stream. */
const CAPTURE_LIMIT = 64 * 1024

/** The tool's console output: never sent to the model. */
export type CapturedConsole = {
  stdout: string
  stderr: string
  /** Bytes printed beyond the kept CAPTURE_LIMIT, per stream. */
  droppedBytes: { stdout: number; stderr: number }
}

/** Bytes kept of the end of stderr. */
const TAIL_BYTES = 16 * 1024

/** Nothing printed (an engine whose console was not captured). */
export const EMPTY_CONSOLE: CapturedConsole = { stdout: "", stderr: "", droppedBytes: { stdout: 0, stderr: 0 } }

export type StreamCapture = {
  read: () => CapturedConsole
  /** The last TAIL_BYTES of stderr: the runtime's own last words (Node's "heap out of memory") come after whatever was kept. */
  stderrTail: () => string
  ended: Promise<void>
  /**
   * Resolves once both pipes have ended, or nothing came on either for `idleMs`, or after `capMs`
   * at most: for output still on its way (an engine that could not hand it all over in time).
   */
  quiet: (idleMs: number, capMs: number) => Promise<void>
  /** Stops reading (what is still unread is dropped). */
  close: () => void
}

/** Null when the process could not be started: nothing to read. */
type Pipe = Readable | null

export function captureStreams(stdout: Pipe, stderr: Pipe): StreamCapture {
  const out = keep(stdout)
  const err = keep(stderr)
  const ended = Promise.all([out.ended, err.ended]).then(() => undefined)
  return {
    read: () => ({
      stdout: out.text(),
      stderr: err.text(),
      droppedBytes: { stdout: out.dropped(), stderr: err.dropped() },
    }),
    stderrTail: () => err.tail(),
    ended,
    quiet: (idleMs, capMs) =>
      new Promise<void>((resolve) => {
        const started = performance.now()
        let timer: NodeJS.Timeout | undefined
        const done = () => {
          clearTimeout(timer)
          resolve()
        }
        const check = () => {
          const now = performance.now()
          const idle = now - Math.max(started, out.lastReadAt(), err.lastReadAt())
          if (idle >= idleMs || now - started >= capMs) done()
          else timer = setTimeout(check, Math.min(idleMs - idle, capMs - (now - started)) + 1)
        }
        void ended.then(done)
        check()
      }),
    close: () => {
      out.close()
      err.close()
    },
  }
}

function keep(pipe: Pipe) {
  const kept = Buffer.alloc(CAPTURE_LIMIT)
  let used = 0
  let dropped = 0
  let last = Buffer.alloc(0)
  let lastReadAt = Number.NEGATIVE_INFINITY
  const take = (chunk: Uint8Array) => {
    lastReadAt = performance.now()
    last = Buffer.concat([last, chunk]).subarray(-TAIL_BYTES)
    const taken = Math.min(CAPTURE_LIMIT - used, chunk.length)
    if (taken > 0) kept.set(chunk.subarray(0, taken), used)
    used += taken
    dropped += chunk.length - taken
  }
  const { ended, close } = pipe === null ? { ended: Promise.resolve(), close: () => {} } : readNode(pipe, take)
  return {
    // A character cut at the limit is left out.
    text: () => new TextDecoder().decode(kept.subarray(0, used)).replace(/\uFFFD$/, ""),
    dropped: () => dropped,
    tail: () => last.toString("utf8"),
    lastReadAt: () => lastReadAt,
    ended,
    close,
  }
}

function readNode(stream: Readable, take: (chunk: Uint8Array) => void) {
  stream.on("data", take)
  const ended = new Promise<void>((resolve) => {
    // A pipe read before this (engine-process.ts holds an engine's) may have ended already.
    if (stream.readableEnded || stream.destroyed) resolve()
    stream.once("close", resolve)
    stream.once("end", resolve)
    stream.once("error", () => resolve())
  })
  return { ended, close: () => void stream.destroy() }
}
