// What every model API of the mock writes the same way: the turn it plays, the answer it gives
// (a stream or a whole body), and one server-sent event.

/** What a model answers to one request: text, then tool calls (also the eval tests' keyword model). */
export interface PlannedTurn {
  text: string
  calls: Array<{ id: string; name: string; arguments: string }>
}

/** A model's answer: the frames of a streaming request, the body of a whole one. */
export interface Answer {
  /** A streaming request's frames: server-sent events, or binary frames (Bedrock's event stream). */
  stream: Array<string | Uint8Array>
  /** The whole answer for a non-streaming request. */
  whole: unknown
}

/** One server-sent event: its `event:` line when the API names its events, then the JSON data. */
export function sse(value: unknown, event?: string): string {
  return `${event === undefined ? "" : `event: ${event}\n`}data: ${JSON.stringify(value)}\n\n`
}

/**
 * A whole answer's call input, for an API that sends it as a JSON value, not text: the arguments
 * parsed, `{}` for none, and arguments that are not JSON as their text (a string input, which
 * opencode reroutes to `invalid`).
 */
export function wholeInput(text: string): unknown {
  if (text === "") return {}
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
