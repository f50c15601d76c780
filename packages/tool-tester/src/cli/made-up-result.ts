// The result `run` reports for a call that gave none: the tool timed out with its thread busy, ended
// the engine's process, or the engine's channel failed while it ran. tool-tester makes it up, with
// its own message as `output` (run-report.ts says what the model would read instead).
import type { Reached } from "../engine-client/protocol.ts"
import type { RunJson } from "../tasks/run-task.ts"

/** A failed call's result as run's JSON has it, from what the engine said when it reached the tool. */
export function madeUpResult(
  reached: Reached | undefined,
  error: { code: string; message: string },
  durationMs: number,
): RunJson {
  const { name, id } = reached ?? { name: "", id: "" }
  return {
    name,
    id,
    status: "error",
    output: error.message,
    title: null,
    metadata: null,
    attachments: null,
    truncated: false,
    outputPath: null,
    asks: [],
    durationMs,
    // What the call sent, as the engine said when it reached the tool (null only when too long to say).
    args: typeof reached?.args === "string" ? (JSON.parse(reached.args) as unknown) : null,
    repaired: id !== name && id !== "invalid",
    rerouted: id === "invalid" && name !== "invalid",
    error,
  }
}
