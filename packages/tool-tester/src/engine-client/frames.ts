// How messages cross between the Node side and an engine's process: one JSON text per line, in
// UTF-8, at most MAX_FRAME_BYTES a line. Neither side lets its runtime parse what the other writes
// (Node's own IPC parser throws on a bad line, from where no one can catch it): each reads a plain
// pipe, cuts it into lines here, and checks every line before it believes it.

/** The largest line either side reads: more is refused before it is kept whole (a tool's 600 MB write). */
export const MAX_FRAME_BYTES = 64 * 1024 * 1024

/** What a stream of bytes cut into lines gave: the complete lines, or why it cannot go on. */
export type Cut = { lines: string[]; oversized?: number }

/**
 * Cuts a byte stream into lines as chunks arrive. A line longer than MAX_FRAME_BYTES is not kept:
 * `oversized` says how many bytes it had reached, and the caller ends the channel.
 */
export class LineCutter {
  readonly #limit: number
  #pending: Uint8Array[] = []
  #pendingBytes = 0

  constructor(limit = MAX_FRAME_BYTES) {
    this.#limit = limit
  }

  push(chunk: Uint8Array | string): Cut {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk
    const lines: string[] = []
    let start = 0
    for (let end = bytes.indexOf(10, start); end !== -1; end = bytes.indexOf(10, start)) {
      const size = this.#pendingBytes + (end - start)
      if (size > this.#limit) return { lines, oversized: size }
      this.#pending.push(bytes.subarray(start, end))
      lines.push(Buffer.concat(this.#pending, size).toString("utf8"))
      this.#pending = []
      this.#pendingBytes = 0
      start = end + 1
    }
    if (start < bytes.length) {
      this.#pendingBytes += bytes.length - start
      if (this.#pendingBytes > this.#limit) return { lines, oversized: this.#pendingBytes }
      this.#pending.push(bytes.subarray(start))
    }
    return { lines }
  }

  /** Bytes received after the last complete line. */
  get pendingBytes(): number {
    return this.#pendingBytes
  }
}
