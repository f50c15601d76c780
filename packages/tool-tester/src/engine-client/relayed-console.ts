// The library's bun engine runs the tools in a process of its own. A test runner (vitest, jest)
// shows what a test prints under that test only when it goes through the `console` it put in
// place of Node's; a write straight to the file descriptor is shown unattributed, among the
// reporter's lines. So when this process's console is not Node's own, the engine's stdout and
// stderr are piped here and each line is written through it: stdout's with console.log, stderr's
// with console.error, as the node engine's tools (which run in this process) already do. A partial
// line is held until its end comes, the other stream writes, the call that printed it returns, or
// the engine's pipes end; one longer than MAX_HELD_CHARS is written as a line of its own, so a tool
// printing without newlines is not kept in memory. Outside a test runner the engine's output goes
// straight to this process's stdout and stderr, unchanged (spawn-engine.ts, "inherit").
import type { Readable } from "node:stream"
import { linePieces, readConsole } from "./labelled-console.ts"
import type { EngineConsole } from "./spawn-engine.ts"

/** A partial line this long is written as a line without waiting for its end. */
const MAX_HELD_CHARS = 64 * 1024

/** How much is read before the pipes wait for the event loop to turn (not after every read: what a call prints is read before its answer). */
const TURN_CHARS = 1024 * 1024

export type ConsoleRelay = {
  /** Takes what the engine printed on one of its streams (decoded text); writes each whole line. */
  write: (stream: "stdout" | "stderr", text: string) => void
  /** Writes the partial line held, if any, as a line of its own. */
  flush: () => void
}

/** Whole lines of the engine's two streams, each given to `writeLine` without its "\n". */
export function consoleRelay(writeLine: (stream: "stdout" | "stderr", line: string) => void): ConsoleRelay {
  /** The stream whose last line has no end yet, and what it holds of that line. */
  let open: "stdout" | "stderr" | undefined
  let held = ""
  const flush = () => {
    if (open === undefined) return
    const [stream, line] = [open, held]
    open = undefined
    held = ""
    writeLine(stream, line)
  }
  return {
    write: (stream, text) => {
      if (text === "") return
      if (open !== undefined && open !== stream) flush()
      for (const piece of linePieces(text)) {
        if (piece.endsWith("\n")) {
          const line = held + piece.slice(0, -1)
          open = undefined
          held = ""
          writeLine(stream, line)
        } else {
          open = stream
          held += piece
          if (held.length >= MAX_HELD_CHARS) flush()
        }
      }
    },
    flush,
  }
}

/**
 * Reads `streams` (the engine's stdout and stderr) into this process's console, line by line,
 * looked up at each line (a test runner may put its own in place). A console says nothing of being
 * full, so the pipes pause after each TURN_CHARS read until the event loop has turned: a tool
 * printing a gigabyte is read as the console's receiver (a test runner's, on its own channel) gets
 * to it, not gathered here. The last partial line is written when both pipes end.
 */
export function pipeToConsole(streams: { stdout: Readable | null; stderr: Readable | null }): ConsoleRelay {
  // One string, so printed as it is (a lone argument's "%s" or "%%" is not read as a format).
  const relay = consoleRelay((stream, line) => {
    if (stream === "stdout") globalThis.console.log(line)
    else globalThis.console.error(line)
  })
  let read = 0
  readConsole(
    streams,
    (stream, text) => {
      relay.write(stream, text)
      read += text.length
      if (read < TURN_CHARS) return undefined
      read = 0
      return new Promise<void>((resolve) => setImmediate(resolve))
    },
    relay.flush,
  )
  return relay
}

/**
 * Where the library sends a bun engine's output: through this process's console when something
 * (a test runner) has put its own in place of Node's, else straight to its stdout and stderr.
 */
export function libraryConsole(): EngineConsole {
  const own = process.getBuiltinModule?.("node:console")
  return own !== undefined && globalThis.console !== own ? "console" : "inherit"
}
