// What a tool prints while it runs in the worker: kept in a SharedArrayBuffer, so the CLI can read
// it even after the worker called process.exit, crashed or was terminated in a busy loop. The
// first CAPTURE_LIMIT bytes of each stream are kept; the rest is only counted, without copying,
// so a tool that prints a gigabyte costs the time to print it and no memory.

/** Bytes kept per stream. */
export const CAPTURE_LIMIT = 64 * 1024

/** The tool's console output: never sent to the model. */
export type CapturedConsole = {
  stdout: string
  stderr: string
  /** Bytes printed beyond the kept CAPTURE_LIMIT, per stream. */
  droppedBytes: { stdout: number; stderr: number }
}

const HEADER_BYTES = 32 // Float64 x 4: kept and dropped bytes of stdout, then of stderr.

export function createCaptureBuffer(): SharedArrayBuffer {
  return new SharedArrayBuffer(HEADER_BYTES + 2 * CAPTURE_LIMIT)
}

/** In the worker: every write to process.stdout and process.stderr (console.* included) goes to the buffer. */
export function installCapture(buffer: SharedArrayBuffer, streams: { stdout: Writable; stderr: Writable }): void {
  const counters = new Float64Array(buffer, 0, 4)
  redirect(streams.stdout, counters, 0, new Uint8Array(buffer, HEADER_BYTES, CAPTURE_LIMIT))
  redirect(streams.stderr, counters, 2, new Uint8Array(buffer, HEADER_BYTES + CAPTURE_LIMIT, CAPTURE_LIMIT))
}

/** In the CLI: what the worker printed so far. */
export function readCapture(buffer: SharedArrayBuffer): CapturedConsole {
  const counters = new Float64Array(buffer, 0, 4)
  const decode = (offset: number, length: number) =>
    new TextDecoder().decode(new Uint8Array(buffer, offset, length).slice()).replace(/\uFFFD$/, "")
  return {
    stdout: decode(HEADER_BYTES, counters[0]!),
    stderr: decode(HEADER_BYTES + CAPTURE_LIMIT, counters[2]!),
    droppedBytes: { stdout: counters[1]!, stderr: counters[3]! },
  }
}

// --- internal ---

type Writable = { write: (...args: never[]) => boolean }

function redirect(stream: Writable, counters: Float64Array, index: number, kept: Uint8Array): void {
  const write = (chunk: unknown, encoding?: unknown, callback?: unknown): boolean => {
    const done = typeof encoding === "function" ? encoding : callback
    const text = typeof chunk === "string" ? chunk : undefined
    const used = counters[index]!
    const room = kept.length - used
    if (room <= 0) {
      counters[index + 1]! += text !== undefined ? Buffer.byteLength(text, encodingOf(encoding)) : byteLength(chunk)
    } else {
      const bytes = text !== undefined ? Buffer.from(text, encodingOf(encoding)) : toBytes(chunk)
      const taken = Math.min(room, bytes.length)
      kept.set(bytes.subarray(0, taken), used)
      counters[index] = used + taken
      counters[index + 1]! += bytes.length - taken
    }
    if (typeof done === "function") queueMicrotask(() => (done as (error?: Error | null) => void)(null))
    return true
  }
  ;(stream as { write: unknown }).write = write
}

function encodingOf(encoding: unknown): BufferEncoding {
  return typeof encoding === "string" && Buffer.isEncoding(encoding) ? encoding : "utf8"
}

function byteLength(chunk: unknown): number {
  return ArrayBuffer.isView(chunk) ? chunk.byteLength : Buffer.byteLength(String(chunk))
}

function toBytes(chunk: unknown): Uint8Array {
  return ArrayBuffer.isView(chunk)
    ? new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    : Buffer.from(String(chunk))
}
