// Waiting until what this process wrote to stdout and stderr is handed to the system: before the
// CLI exits, and before an engine answers (what a tool printed must be in the pipes before the
// answer that ends the engine). Node's `drain` says so; Bun keeps what a full pipe cannot take in
// memory and says so only when the stream is ended (nothing is printed after this in either case).

/** Resolves once stdout and stderr have handed everything to the system. */
export function flushStdio(): Promise<unknown> {
  return Promise.all([process.stdout, process.stderr].map(flushed))
}

// --- internal ---

function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise<void>((resolve) => {
    stream.once("error", () => resolve())
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
