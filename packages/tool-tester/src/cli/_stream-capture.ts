// What the bun engine's process prints, read from its stdout and stderr pipes: the first
// CAPTURE_LIMIT bytes of each are kept, the rest only counted, so a tool that prints a gigabyte
// costs the time to read it and no memory. The same shape as the worker's capture. The pipes are
// Node streams when Node started the engine, web streams when Bun did (spawn-engine.ts).
import type { Readable } from "node:stream"
import type { CapturedConsole } from "./_console-capture.ts"
import { CAPTURE_LIMIT } from "./_console-capture.ts"

export type StreamCapture = {
  read: () => CapturedConsole
  ended: Promise<void>
  /** Stops reading (what is still unread is dropped). */
  close: () => void
}

/** Null when the process could not be started: nothing to read. */
type Pipe = Readable | ReadableStream<Uint8Array> | null

export function captureStreams(stdout: Pipe, stderr: Pipe): StreamCapture {
  const out = keep(stdout)
  const err = keep(stderr)
  return {
    read: () => ({
      stdout: out.text(),
      stderr: err.text(),
      droppedBytes: { stdout: out.dropped(), stderr: err.dropped() },
    }),
    ended: Promise.all([out.ended, err.ended]).then(() => undefined),
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
  const take = (chunk: Uint8Array) => {
    const taken = Math.min(CAPTURE_LIMIT - used, chunk.length)
    if (taken > 0) kept.set(chunk.subarray(0, taken), used)
    used += taken
    dropped += chunk.length - taken
  }
  const { ended, close } =
    pipe === null
      ? { ended: Promise.resolve(), close: () => {} }
      : pipe instanceof ReadableStream
        ? readWeb(pipe, take)
        : readNode(pipe, take)
  return {
    // A character cut at the limit is left out, as the worker's capture leaves it out.
    text: () => new TextDecoder().decode(kept.subarray(0, used)).replace(/\uFFFD$/, ""),
    dropped: () => dropped,
    ended,
    close,
  }
}

function readNode(stream: Readable, take: (chunk: Uint8Array) => void) {
  stream.on("data", take)
  const ended = new Promise<void>((resolve) => {
    stream.once("close", resolve)
    stream.once("end", resolve)
    stream.once("error", () => resolve())
  })
  return { ended, close: () => void stream.destroy() }
}

function readWeb(stream: ReadableStream<Uint8Array>, take: (chunk: Uint8Array) => void) {
  const reader = stream.getReader()
  const ended = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) return
        take(value)
      }
    } catch {
      // Cancelled, or the pipe broke: what was read is kept.
    }
  })()
  return { ended, close: () => void reader.cancel().catch(() => {}) }
}
