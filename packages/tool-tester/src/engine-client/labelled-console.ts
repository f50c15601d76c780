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
      for (const piece of linePieces(text)) {
        if (open === undefined) out += `${label()} `
        out += piece
        open = piece.endsWith("\n") ? undefined : stream
      }
      write(out)
    },
  }
}

/** `text` cut after each newline: its lines, each with its "\n", then what follows the last one (a partial line). */
export function linePieces(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? []
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
  let full = false
  const labeller = consoleLabeller(label, (text) => {
    if (!sink.write(text)) full = true
  })
  readConsole(streams, (stream, text) => {
    labeller.write(stream, text)
    if (!full) return undefined
    full = false
    return new Promise<void>((resolve) => sink.once("drain", resolve))
  })
}

/**
 * Reads `streams` (the engine's stdout and stderr) as text into `write`: both pause while what
 * `write` returned is pending (the sink is full), and resume when it settles. `ended` is called once
 * both have ended (or closed).
 */
export function readConsole(
  streams: { stdout: Readable | null; stderr: Readable | null },
  write: (stream: "stdout" | "stderr", text: string) => Promise<void> | undefined,
  ended?: () => void,
): void {
  const pipes = [streams.stdout, streams.stderr].filter((pipe): pipe is Readable => pipe !== null)
  let waiting = false
  let open = pipes.length
  for (const stream of ["stdout", "stderr"] as const) {
    const pipe = streams[stream]
    if (pipe === null) continue
    // Decoded as it comes: a character cut between two reads is written whole.
    pipe.setEncoding("utf8")
    pipe.on("data", (text: string) => {
      const wait = write(stream, text)
      if (wait === undefined || waiting) return
      waiting = true
      for (const each of pipes) each.pause()
      void wait.then(() => {
        waiting = false
        for (const each of pipes) each.resume()
      })
    })
    pipe.on("error", () => {})
    let done = false
    const end = () => {
      if (done) return
      done = true
      if (--open === 0) ended?.()
    }
    pipe.once("end", end)
    pipe.once("close", end)
  }
  if (open === 0) ended?.()
}
