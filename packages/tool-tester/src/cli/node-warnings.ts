// Node prints a warning of the CLI's own process (process.emitWarning: an ExperimentalWarning, a
// MaxListenersExceededWarning) on stderr itself, from the 'warning' listener it adds at start-up,
// not through the CLI's io. While a progress line is drawn there (progress-line.ts), the warning
// would start in the middle of it. Listeners around Node's own (one put before it, one after) erase
// the line just before Node prints and draw it again just after: the warning reads exactly as Node
// prints it, and what Node's flags say of warnings (--no-warnings, --redirect-warnings,
// --disable-warning, --trace-warnings) still holds. main.ts gives this to the CLI for `process` only:
// the library never listens to a caller's warnings.
import type { EventEmitter } from "node:events"
import type { WarningHooks } from "./_command.ts"

/** CliIO's `aroundWarnings` for `emitter` (main.ts: `process`). */
export function aroundWarnings(
  emitter: Pick<EventEmitter, "prependListener" | "on" | "off">,
): (hooks: WarningHooks) => () => void {
  return (hooks) => {
    const before = () => hooks.before()
    const after = () => hooks.after()
    emitter.prependListener("warning", before)
    emitter.on("warning", after)
    return () => {
      emitter.off("warning", before)
      emitter.off("warning", after)
    }
  }
}
