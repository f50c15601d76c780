// dev's engine runs every tool of the project in one process, whose stdout and stderr both end up
// on dev's stderr. Unlabelled, a user with several tools cannot tell which printed a line, so each
// line starts with a label (the tool whose call was running when it was read). Line-based, without
// holding anything back: a partial line (`process.stdout.write("loading ")`) is written at once
// and labelled once, where it starts; only a line the other stream breaks into is ended first, so
// that its label and the other stream's text never share a line. The pipes pause while the sink
// (dev's stderr) is full: a tool that prints a gigabyte is slowed to what the sink takes, not
// buffered in dev's memory.
import type { Readable, Writable } from "node:stream"

export type ConsoleLabeller = {
  /** Writes what the engine printed on one of its streams (decoded text), each line after its label. */
  write: (stream: "stdout" | "stderr", text: string) => void
}

/** Lines written with `write`, each starting with `label()` as it is when the line starts. */
export function consoleLabeller(label: () => string, write: (text: string) => void): ConsoleLabeller {
  /** The stream whose last line has no end yet. */
  let open: "stdout" | "stderr" | undefined
  return {
    write: (stream, text) => {
      if (text === "") return
      if (open !== undefined && open !== stream) {
        write("\n")
        open = undefined
      }
      let out = ""
      for (const piece of text.match(/[^\n]*\n|[^\n]+$/g) ?? []) {
        if (open === undefined) out += `${label()} `
        out += piece
        open = piece.endsWith("\n") ? undefined : stream
      }
      write(out)
    },
  }
}

/**
 * Reads `streams` (the engine's stdout and stderr) as text, each line after `label()`, into `sink`;
 * both pause while the sink is full and resume when it drains.
 */
export function pipeLabelled(
  streams: { stdout: Readable | null; stderr: Readable | null },
  label: () => string,
  sink: Writable,
): void {
  const pipes = [streams.stdout, streams.stderr].filter((pipe): pipe is Readable => pipe !== null)
  let waiting = false
  const labeller = consoleLabeller(label, (text) => {
    if (sink.write(text) || waiting) return
    waiting = true
    for (const pipe of pipes) pipe.pause()
    sink.once("drain", () => {
      waiting = false
      for (const pipe of pipes) pipe.resume()
    })
  })
  for (const stream of ["stdout", "stderr"] as const) {
    const pipe = streams[stream]
    // Decoded as it comes: a character cut between two reads is written whole.
    pipe?.setEncoding("utf8")
    pipe?.on("data", (text: string) => labeller.write(stream, text))
    pipe?.on("error", () => {})
  }
}
