// Waiting until what this process wrote to stdout and stderr is handed to the system: before the
// CLI exits, and before an engine answers (what a tool printed must be in the pipes before the
// answer that ends the engine). Node's `drain` says so; Bun keeps what a full pipe cannot take in
// memory and says so only when the stream is ended (nothing is printed after this in either case).

/** Resolves once stdout and stderr have handed everything to the system. */
export function flushStdio(): Promise<unknown> {
  return Promise.all([process.stdout, process.stderr].map(flushed))
}

// --- internal ---

// A stream a tool destroyed takes nothing more and says nothing more: waiting for it would never
// end. Bun says `destroyed` only for a moment (then false again, and `end()` never finishes), so
// its `close` is watched from the start (this module loads before any tool does).
const closed = new WeakSet<object>()
for (const stream of [process.stdout, process.stderr]) stream.once("close", () => closed.add(stream))

function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise<void>((resolve) => {
    if (stream.destroyed || closed.has(stream)) return resolve()
    stream.once("error", () => resolve())
    stream.once("close", () => resolve())
    if (typeof process.versions.bun === "string") {
      if (stream.writableFinished) return resolve()
      stream.once("finish", resolve)
      stream.end()
      return
    }
    if (stream.writableLength === 0) return resolve()
    stream.once("drain", resolve)
  })
}
