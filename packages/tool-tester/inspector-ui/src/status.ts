// What became of a call, in one word, the same in the result and in the history. opencode records
// a call rerouted to `invalid` as a completed part of the `invalid` tool, but the tool that was
// called never ran and the model reads an error: the page says "rerouted", in the error colour.
// Errors that escaped the call (a promise left to reject, a throw in a timer) do not change what
// opencode records, but they are bugs: the status counts them, in the warning colour
// (docs/opencode-contract.md#escaped-errors).
import type { HistoryEntry } from "./types.ts"

export type CallStatus = { label: string; tone: "good" | "warn" | "bad" | "running"; explanation: string }

export function callStatus(entry: HistoryEntry): CallStatus {
  const status = recordedStatus(entry)
  const escaped = entry.result?.escapedErrors?.length ?? 0
  if (escaped === 0) return status
  return {
    label: `${status.label}, ${escaped} escaped error${escaped === 1 ? "" : "s"}`,
    tone: status.tone === "good" ? "warn" : status.tone,
    explanation: `${status.explanation}; ${escaped === 1 ? "an error" : `${escaped} errors`} escaped the tool while it ran: opencode prints ${escaped === 1 ? "it" : "them"} on stderr and keeps the call's result`,
  }
}

// --- internal ---

function recordedStatus(entry: HistoryEntry): CallStatus {
  const { result, error } = entry
  if (entry.running)
    return entry.cancelling
      ? {
          label: "cancelling",
          tone: "running",
          explanation: "its abort signal fired: the engine is stopped if the tool does not stop within a second",
        }
      : { label: "running", tone: "running", explanation: "the call has not ended: Cancel fires its abort signal" }
  // Cancelled, yet the tool stopped by itself: what it returned is kept, but the call was cancelled.
  if (result && error) return { label: error.code, tone: "bad", explanation: error.message }
  if (!result)
    return { label: error?.code ?? "error", tone: "bad", explanation: error?.message ?? "the call did not run" }
  if (result.rerouted)
    return {
      label: "rerouted",
      tone: "bad",
      explanation: `${entry.request.name} did not run: opencode rerouted the call to the invalid tool (it records a completed call of invalid) and the model reads its error`,
    }
  if (result.status === "error")
    return { label: "error", tone: "bad", explanation: "the tool failed: opencode records an error part" }
  return { label: "completed", tone: "good", explanation: "opencode records a completed part" }
}
