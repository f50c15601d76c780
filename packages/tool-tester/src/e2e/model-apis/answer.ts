// What every model API of the mock writes the same way: the turn it plays, the answer it gives
// (a stream or a whole body), and one server-sent event.

/** What a model answers to one request: text, then tool calls (also the eval tests' keyword model). */
export interface PlannedTurn {
  text: string
  calls: Array<{ id: string; name: string; arguments: string }>
}

/** A model's answer: the SSE frames of a streaming request, the body of a whole one. */
export interface Answer {
  /** SSE frames for a streaming request. */
  stream: string[]
  /** The whole answer for a non-streaming request. */
  whole: unknown
}

/** One server-sent event: its `event:` line when the API names its events, then the JSON data. */
export function sse(value: unknown, event?: string): string {
  return `${event === undefined ? "" : `event: ${event}\n`}data: ${JSON.stringify(value)}\n\n`
}
