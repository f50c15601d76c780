// A tool's process.exit() while its call runs. In opencode it ends opencode at once; in an engine's
// process it ends the engine, and the Node side reports TOOL_EXITED with the exit code. In the
// caller's own process (the library's node engine, a `bun test` file) it would end the caller
// (vitest turns it into an error worded its own way): so there, while some call runs,
// process.exit is replaced. A call of it from a call's own code (its async context: execute, the
// hooks, a timer they set) is recorded for that call and stops the tool there with a throw, and the
// call is reported as TOOL_EXITED, as under the engines; anyone else's call goes to the
// process.exit that was there. That throw is tool-tester's, not the tool's: from a timer or a
// promise nobody awaits it would escape (printed, listed, and taken by a test runner for its own
// unhandled error), so while some call runs process.emit drops it as uncaughtException or
// unhandledRejection, and passes on everything else; Bun, which calls the listeners without
// process.emit, still passes it to them, and runtime/escaped-errors.ts leaves it out.
import { AsyncLocalStorage } from "node:async_hooks"

/** The exit status the OS would have seen from the call's process.exit, once it called it. */
type ExitCall = { code?: number }

// Kept before any tool runs: a tool may replace globalThis.process.
const hostProcess: NodeJS.Process = process
const calls = new AsyncLocalStorage<ExitCall>()
/** The calls running now; process.exit and process.emit are replaced while there is one. */
let running = 0
/** True in an engine's process: a tool's process.exit ends it, and the Node side reports that. */
let engine = false
let callersExit: NodeJS.Process["exit"] = hostProcess.exit
let callersEmit: NodeJS.Process["emit"] = hostProcess.emit
/** The throws that stopped a call's code at its process.exit. */
const stops = new WeakSet<object>()

/** An engine's process: a tool's process.exit ends it, as it would end opencode. */
export function exitEndsTheEngine(): void {
  engine = true
}

/**
 * Runs a call with process.exit caught for its code, until `stop()`, which says with what code the
 * call's code called it (undefined when it did not). In an engine's process it runs the call as is.
 */
export function watchExit(): {
  run<T>(call: () => Promise<T>): Promise<T>
  stop(): { code: number } | undefined
} {
  if (engine) return { run: (call) => call(), stop: () => undefined }
  const exit: ExitCall = {}
  if (running === 0) {
    callersExit = hostProcess.exit
    hostProcess.exit = caughtExit
    callersEmit = hostProcess.emit
    hostProcess.emit = emitWithoutStops
  }
  running++
  let stopped = false
  return {
    run: (call) => calls.run(exit, call),
    stop() {
      if (!stopped) {
        stopped = true
        running--
        // Put back only our own: what the caller put there meanwhile is the caller's.
        if (running === 0 && hostProcess.exit === caughtExit) hostProcess.exit = callersExit
        if (running === 0 && hostProcess.emit === emitWithoutStops) hostProcess.emit = callersEmit
      }
      return exit.code === undefined ? undefined : { code: exit.code }
    },
  }
}

/** True for the throw that stopped a call's code at its process.exit: tool-tester's, not the tool's. */
export function isExitStop(thrown: unknown): boolean {
  return typeof thrown === "object" && thrown !== null && stops.has(thrown)
}

/** The one-line TOOL_EXITED message, as the engines give it for a tool's process.exit. */
export function exitedWith(code: number): string {
  return `the tool ended its process with process.exit(${code}); under opencode that stops opencode itself: throw an Error instead`
}

// --- internal ---

function caughtExit(code?: number | string | null): never {
  const call = calls.getStore()
  if (call === undefined) return Reflect.apply(callersExit, hostProcess, [code]) as never
  // The first call counts: opencode would have ended there.
  call.code ??= exitStatus(code ?? hostProcess.exitCode ?? 0)
  const stop = new Error(`process.exit(${call.code}) was called: under opencode the process ends here`)
  stops.add(stop)
  throw stop
}

/**
 * The status the OS sees when a process exits with `code`, as the engines report it: the low 8
 * bits of the integer (process.exit(256) is 0, -1 is 255), all 32 on Windows, read as unsigned;
 * an integer string counts as its number ("2" is 2, "0x10" 16). A code the runtime's own
 * process.exit refuses (1.5, "abc", true) throws its TypeError or RangeError, as process.exit
 * does in Node and in Bun: the tool can catch it, and the process goes on. The exitCode setter
 * checks a code as process.exit does; it is put back at once.
 */
function exitStatus(code: number | string): number {
  const before = hostProcess.exitCode
  hostProcess.exitCode = code
  hostProcess.exitCode = before
  const value = Number(code)
  return process.platform === "win32" ? value >>> 0 : value & 0xff
}

/** process.emit, but a stop of caughtExit that escaped (from a timer, a promise) is handled here, silently. */
function withoutStops(this: NodeJS.Process, event: string | symbol, ...args: unknown[]): boolean {
  const escaped = event === "uncaughtException" || event === "unhandledRejection"
  if (escaped && isExitStop(args[0])) return true
  return Reflect.apply(callersEmit, this, [event, ...args]) as boolean
}
// Its overloads are process.emit's, which it passes every event to.
const emitWithoutStops = withoutStops as NodeJS.Process["emit"]
