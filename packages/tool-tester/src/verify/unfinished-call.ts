// A call opencode never finished (it ended or hung before the model got the result), beside
// tool-tester's: each text says what happened. They agree only when tool-tester's call ends the
// same way: its process with the same exit code (a tool's process.exit ends opencode itself), or
// opencode's run with the error opencode's session failed with (a result opencode cannot copy).
// opencode hanging is a difference from any result tool-tester gives.
//
// A parallel batch (the calls the model asked in one step) runs together: when one of its calls
// ends opencode's run, the others are cut off with it, whether they had finished or not. Where
// tool-tester predicts that another call of the step ends the run, such a call says so on both
// sides (and, where opencode had finished its part, that part beside tool-tester's); the call that
// ended the run is the one compared with how opencode's run ended.
import { sessionFailure } from "../e2e/e2e-result.ts"
import type { RunResult } from "../types.ts"
import { opencodeSide, partFinished, type Side } from "./call-side.ts"
import type { ObservedCall, ObservedRun } from "./observed-run.ts"

/** The two texts of a call opencode never finished; `stepEnds`: tool-tester predicts a call of its step ends the run. */
export function unfinishedTexts(
  run: ObservedRun,
  call: ObservedCall,
  toolTester: { result: RunResult; side: Side },
  stepEnds: boolean,
): { opencode: string; toolTester: string } {
  const ends = runEnding(toolTester.result)
  if (ends === undefined && stepEnds && run.hung !== true)
    return { opencode: cutOffText(call, opencodeSide(call)), toolTester: cutOffText(call, toolTester.side) }
  return { opencode: unfinishedText(run, call), toolTester: ends ?? finishedText(toolTester.side) }
}

/**
 * How tool-tester predicts its call ends opencode's run, in the words of unfinishedText; undefined
 * when the call finishes.
 */
export function runEnding(result: RunResult): string | undefined {
  // A result opencode cannot copy, or a thrown value it cannot turn into text: tool-tester predicts
  // opencode's run ends there, with its error (the pipeline's TOOL_BAD_RESULT gives the model
  // `(no answer: opencode's run ended with "<error>")`).
  const endsRun =
    result.error?.code === "TOOL_BAD_RESULT"
      ? /^\(no answer: opencode's run ended with "(.*)"\)$/s.exec(result.output)
      : null
  if (endsRun !== null)
    return `not finished: opencode's run ended with ${JSON.stringify(endsRun[1])} before the model got the result`
  if (result.error?.code === "TOOL_EXITED") {
    const exited = /process\.exit\((-?\d+)\)/.exec(result.error.message)
    const ended = exited === null ? result.error.message : `the process ended with exit code ${exited[1]}`
    return `not finished: ${ended} before the model got the result`
  }
  return undefined
}

// --- internal ---

function finishedText(side: Side): string {
  return [
    `finished: status: ${side.status}`,
    `title: ${JSON.stringify(side.title)}`,
    `metadata: ${JSON.stringify(side.metadata)}`,
    `output: ${side.output}`,
  ].join("\n")
}

/** What opencode did with a call it never finished: hung, failed its session (quoting its error), or ended. */
function unfinishedText(run: ObservedRun, call: ObservedCall): string {
  // A part opencode had finished (it ended before sending the result on) says so; a running one is the rule.
  const part = partFinished(call) ? ` (its tool part: ${call.status})` : ""
  if (run.hung === true) return `not finished: opencode hung in the call and was stopped at its bound${part}`
  const failure = sessionFailure(run.errors)
  const ended = run.exitCode === null ? "opencode was killed" : `the process ended with exit code ${run.exitCode}`
  // Its own session failed: what it failed with, not the exit code (1 on 1.18.34), is what tool-tester predicts.
  if (failure !== undefined)
    return `not finished: opencode's run ended with ${JSON.stringify(failure)} before the model got the result${part}`
  return `not finished: ${ended} before the model got the result${part}`
}

/**
 * A call cut off by another call of its step ending opencode's run, and its part where opencode
 * had finished it (whether it had is a race between the calls of the step, so only then).
 */
function cutOffText(call: ObservedCall, side: Side): string {
  const lines = ["not finished: opencode's run ended in another call of the same step, before the model got the result"]
  if (partFinished(call))
    lines.push(
      `its tool part: status: ${side.status}`,
      `title: ${JSON.stringify(side.title)}`,
      `metadata: ${JSON.stringify(side.metadata)}`,
    )
  return lines.join("\n")
}
