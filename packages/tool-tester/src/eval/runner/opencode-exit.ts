// What the eval says when opencode's process ended by itself while trials ran (eval-servers.ts):
// one line naming how it ended and the trials running then. The trials that ran a tool for real
// are the suspects: a tool that ends its process ends opencode, in which it runs. Each fails with
// OPENCODE_EXITED; a trial that ran no tool for real beside one that did is run again, once; with
// no suspect at all (something outside the eval ended opencode), every trial running then fails.

import type { TrialError } from "../../eval-cases/types.ts"
import type { ServerExit } from "../../opencode/opencode-server.ts"
import type { EndedServer, InFlight } from "./eval-servers.ts"

/** What becomes of a trial whose requests failed because opencode ended: it fails, or it is run again. */
export function trialVerdict(
  end: EndedServer,
  trial: InFlight,
  ranAgain: boolean,
): { rerun: true } | { rerun: false; error: TrialError } {
  const suspects = end.during.filter((running) => running.ranForReal.size > 0)
  const innocent = suspects.length > 0 && !suspects.includes(trial)
  if (innocent && !ranAgain) return { rerun: true }
  return { rerun: false, error: { code: "OPENCODE_EXITED", message: exitLine(end) } }
}

/** The run's problem for an opencode that ended by itself: the trial error's line, then what came after. */
export function exitProblem(end: EndedServer): { code: "OPENCODE_EXITED"; message: string } {
  const after: string[] = []
  if (end.rerun > 0)
    after.push(`${end.rerun === 1 ? "1 other trial" : `${end.rerun} other trials`} running then ran again`)
  if (end.next?.started === true) after.push("opencode was started again for the trials left")
  else if (end.next?.started === false)
    after.push(`opencode did not start again (${end.next.reason}), so the trials left failed`)
  return { code: "OPENCODE_EXITED", message: [exitLine(end), ...after].join("; ") }
}

/** The error of a trial that found opencode ended and not started again. */
export function notRestartedError(end: EndedServer | undefined, reason: string): TrialError {
  const how = end === undefined ? "opencode ended" : `opencode ${exitWords(end.exit)}`
  return { code: "OPENCODE_FAILED", message: `${how} during an earlier trial and did not start again: ${reason}` }
}

// --- internal ---

function exitLine(end: EndedServer): string {
  const how = `opencode ${exitWords(end.exit)}`
  const suspects = end.during.filter((running) => running.ranForReal.size > 0)
  if (suspects.length === 0) {
    const running = end.during.map(trialName)
    const when = running.length === 0 ? "between trials" : `while ${running.join(" and ")} ran`
    return `${how} ${when}, and no tool ran for real (a case's "execute"): something outside the eval ended it (out of memory?)`
  }
  const each = suspects.map((running) => `${trialName(running)} ran ${[...running.ranForReal].join(", ")} for real`)
  const tools = suspects.reduce((sum, running) => sum + running.ranForReal.size, 0)
  const blame = tools === 1 ? "the tool ended opencode's process" : "one of those tools ended opencode's process"
  const execute = suspects.length === 1 ? `the case's "execute"` : `their cases' "execute"`
  return `${how} while ${each.join(" and ")} (${execute}): ${blame}, as process.exit or a kill in a tool does (tool-tester run reports it as TOOL_EXITED)`
}

function exitWords(exit: ServerExit): string {
  if (exit.signal !== null) return `was ended by ${exit.signal}`
  return `exited (exit code ${exit.code ?? "unknown"})`
}

function trialName(running: InFlight): string {
  const arm = running.arm === undefined ? "" : `, ${running.arm}`
  return `case "${running.case}" (run ${running.run} on ${running.model}${arm})`
}
