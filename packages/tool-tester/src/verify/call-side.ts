// One call as each side made it, in the terms verify compares: the text the model received, the
// part's status, title and metadata; opencode's from its recording, tool-tester's from its result.
import type { RunResult } from "../types.ts"
import type { ObservedCall } from "./observed-run.ts"

export type Side = { output: string | null; status: string | null; title: string | null; metadata: unknown }

export function opencodeSide(call: ObservedCall): Side {
  return {
    output: call.result === null ? null : ownExpectation(call.result),
    status: call.status,
    title: call.title,
    metadata: call.metadata,
  }
}

/** tool-tester's result, with the run's paths as the recording's placeholders. */
export function toolTesterSide(result: RunResult, directory: string): Side {
  let output = result.output
  if (result.outputPath) output = output.replaceAll(result.outputPath, "<outputPath>")
  output = output.replaceAll(directory, "<directory>")
  const metadata = result.outputPath ? { ...result.metadata, outputPath: "<outputPath>" } : result.metadata
  return { output, status: result.status, title: result.title, metadata }
}

/** Whether opencode had finished the call's part (its status, title and metadata are then recorded). */
export function partFinished(call: ObservedCall): boolean {
  return call.status === "completed" || call.status === "error"
}

/**
 * A call's part as one text: the status, then the title and metadata (for a completed or failed
 * part, as opencode records them: a failed part has neither, docs/opencode-contract.md#failed-call-parts),
 * then the text the model received (unless the difference is documented).
 */
export function callText(call: ObservedCall, side: Side, documented: boolean): string {
  const lines = [`status: ${side.status}`]
  if (partFinished(call))
    lines.push(`title: ${JSON.stringify(side.title)}`, `metadata: ${JSON.stringify(side.metadata)}`)
  if (!documented) lines.push(`output: ${side.output}`)
  return lines.join("\n")
}

// --- internal ---

/**
 * The golden's text as opencode itself would give it, where the recording holds what the observer
 * added: its OPENCODE_* settings (config, its disable switches, its --log-level and --print-logs)
 * are in the environment beside what opencode adds (OPENCODE, OPENCODE_PID).
 */
function ownExpectation(text: string): string {
  if (!text.startsWith("{") || !text.includes('"env":')) return text
  const recorded = JSON.parse(text) as { env?: unknown }
  if (typeof recorded.env !== "string") return text
  const env = JSON.parse(recorded.env) as { opencode: string[] }
  env.opencode = env.opencode.filter((entry) => /^OPENCODE(_PID)?=/.test(entry))
  return JSON.stringify({ ...recorded, env: JSON.stringify(env) })
}
