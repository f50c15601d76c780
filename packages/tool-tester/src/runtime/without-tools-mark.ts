// The mark (process-tree.ts, ENGINE_MARK) that every process an engine starts inherits, and by
// which it is ended with that engine. A process this CLI starts to outlive the tools (the browser
// dev opens) must not carry one, should this CLI itself have been started under an engine.
import { ENGINE_MARK } from "./process-tree.ts"

/** `env` without the mark: for a process that must outlive the tools (a browser the CLI opens). */
export function withoutToolsMark(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const { [ENGINE_MARK]: _mark, ...rest } = env
  return rest
}
