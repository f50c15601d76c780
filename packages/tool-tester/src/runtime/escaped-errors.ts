// Errors that escape a tool outside the promise `execute` returns: a promise left to reject, a
// throw from a timer or an event handler. opencode prints them on stderr and goes on with what the
// tool returned (docs/opencode-contract.md#escaped-errors); so does the process running the tools
// here, under both engines (Node would otherwise end on either), and each call lists those that
// escaped while it ran.

import { messageOfThrown } from "../errors.ts"
import { isExitStop } from "./exit-in-call.ts"

/**
 * An error that escaped a tool: `unhandledRejection` for a promise nobody handled,
 * `uncaughtException` for a throw from a timer or an event handler; `message` is `Name: message`.
 * It escaped while the call ran, from this tool or from another one running at the same time.
 */
export type EscapedError = { kind: "unhandledRejection" | "uncaughtException"; message: string }

// Kept before any tool runs: a tool may replace console.error, or globalThis.process.
const printError = console.error.bind(console)
const hostProcess: NodeJS.Process = process

/** The calls running now, each with what escaped since it started. */
const watches = new Set<EscapedError[]>()
/** True in an engine's process: the listeners stay for as long as it lives. */
let permanent = false

const escaped = (kind: EscapedError["kind"]) => (error: unknown) => {
  // The throw that stopped a tool at its process.exit (runtime/exit-in-call.ts): not the tool's error.
  if (isExitStop(error)) return
  try {
    printError(error)
  } catch {
    // A thrown value that cannot even be printed (a hostile Proxy): its message below says so.
  }
  const record: EscapedError = { kind, message: escapedMessage(error) }
  for (const list of watches) list.push(record)
}
const onRejection = escaped("unhandledRejection")
const onException = escaped("uncaughtException")

/** An engine's process: whatever escapes, whenever, is printed and the process goes on, as opencode does. */
export function keepGoingOnEscapes(): void {
  if (!permanent) listen(true)
  permanent = true
}

/**
 * Lists what escapes until `stop()`, which returns it. In a process that is not an engine (the
 * library's node engine runs tools in its caller's process), the listeners are there only while
 * some call is watched: the host's own handling of its errors is left as it was otherwise.
 */
export function watchEscapes(): { stop(): EscapedError[] } {
  if (!permanent && watches.size === 0) listen(true)
  const list: EscapedError[] = []
  watches.add(list)
  return {
    stop() {
      if (watches.delete(list) && !permanent && watches.size === 0) listen(false)
      return list
    },
  }
}

// --- internal ---

function listen(on: boolean): void {
  if (on) {
    hostProcess.on("unhandledRejection", onRejection)
    hostProcess.on("uncaughtException", onException)
  } else {
    hostProcess.off("unhandledRejection", onRejection)
    hostProcess.off("uncaughtException", onException)
  }
}

function escapedMessage(error: unknown): string {
  try {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  } catch {
    return messageOfThrown(error)
  }
}
