// What the bun engine's process prints, read from its stdout and stderr pipes: the first
// CAPTURE_LIMIT bytes of each are kept, the rest only counted, so a tool that prints a gigabyte
// costs the time to read it and no memory. The same shape as the worker's capture.
import type { Readable } from "node:stream"
import type { CapturedConsole } from "./_console-capture.ts"
import { CAPTURE_LIMIT } from "./_console-capture.ts"

export type StreamCapture = { read: () => CapturedConsole; ended: Promise<void> }

export function captureStreams(stdout: Readable, stderr: Readable): StreamCapture {
  const out = keep(stdout)
  const err = keep(stderr)
  return {
    read: () => ({
      stdout: out.text(),
      stderr: err.text(),
      droppedBytes: { stdout: out.dropped(), stderr: err.dropped() },
    }),
    ended: Promise.all([out.ended, err.ended]).then(() => undefined),
  }
}

function keep(stream: Readable) {
  const kept = Buffer.alloc(CAPTURE_LIMIT)
  let used = 0
  let dropped = 0
  stream.on("data", (chunk: Buffer) => {
    const taken = Math.min(CAPTURE_LIMIT - used, chunk.length)
    if (taken > 0) chunk.copy(kept, used, 0, taken)
    used += taken
    dropped += chunk.length - taken
  })
  const ended = new Promise<void>((resolve) => {
    stream.once("close", resolve)
    stream.once("end", resolve)
    stream.once("error", () => resolve())
  })
  return {
    // A character cut at the limit is left out, as the worker's capture leaves it out.
    text: () => new TextDecoder().decode(kept.subarray(0, used)).replace(/\uFFFD$/, ""),
    dropped: () => dropped,
    ended,
  }
}
