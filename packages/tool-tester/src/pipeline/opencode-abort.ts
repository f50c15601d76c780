// The reason a tool's `context.abort` carries when opencode stops its call (its session aborted, as
// a client's POST /session/{id}/abort does): Bun's own abort reason, a DOMException
// named AbortError with the message "The operation was aborted." (observed on 1.18.34, through
// eval's abort of a trial that timed out). It is the only stop a tool sees in opencode, so every
// stop tool-tester makes (a timeout, a cancel in dev, a caller's signal, in either engine) gives
// the same, and a tool that tells a stop apart by its reason behaves as it will there.

// As it was when the pipeline loaded, before any tool could replace the global.
const PristineDOMException = DOMException

/** A new reason for a stopped call, as opencode's. */
export function opencodeAbortReason(): DOMException {
  return new PristineDOMException("The operation was aborted.", "AbortError")
}
