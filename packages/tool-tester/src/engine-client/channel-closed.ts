// An engine whose descriptor 3 was closed by a tool (docs/errors.md#channel_closed), seen from
// either end: the Node side reads the descriptor to its end while the engine still runs, or the
// engine fails to write its next message on it. Only the second is seen when another process still
// holds the pipe (a child the tool started with descriptor 3), so the engine then ends with this
// exit code, which the Node side reads as CHANNEL_CLOSED. A tool can exit with the same code: the
// engine first makes a file only the two ends know the name of (Hello.closedFile), and an exit
// without it is the tool's.

/** The exit code of an engine that could not write on its descriptor 3. */
export const CHANNEL_CLOSED_EXIT_CODE = 87

export const CHANNEL_CLOSED_MESSAGE =
  "something in the engine's process (the tool, or a process it started) closed its file descriptor 3, the engine's channel, so no answer could come back; opencode has no such channel: leave descriptors you did not open alone"
