// What opencode's stderr says about why it exited with an error. An error that escapes a tool
// outside the promise `execute` returns (a throw from a timer or an event handler) does not stop
// opencode: Bun prints it (the source lines, a caret, `error: <message>`, the stack) and the
// session goes on, but `opencode run` then exits 1 (docs/opencode-contract.md#escaped-errors).
// The last line printed is a stack frame, which says nothing: the `error:` line does, and the
// first frame in a file of the project names the tool.
import path from "node:path"
import type { E2EError } from "./e2e-result.ts"

export type UncaughtError = {
  /** The line Bun printed, `error: <message>`. */
  line: string
  /** Where it was thrown (`.opencode/tools/x.ts:7:52`, relative to the project), when a frame shows a file. */
  file?: string
}

/** The last uncaught error Bun printed on opencode's stderr, or undefined when there is none. */
export function lastUncaughtError(
  errors: E2EError[],
  directories: { project: string; home: string },
): UncaughtError | undefined {
  const lines = errors.filter((error) => error.source === "stderr").map((error) => error.message)
  for (let index = lines.length - 1; index >= 0; index--) {
    const line = lines[index]!.trimEnd()
    if (!line.startsWith("error: ")) continue
    const uncaught: UncaughtError = { line }
    for (const frame of lines.slice(index + 1)) {
      const [, file, position] = FRAME.exec(frame) ?? []
      if (file === undefined) break
      if (file.startsWith("node:") || file.includes("$bunfs")) continue
      uncaught.file = shown(file, directories) + position
      break
    }
    return uncaught
  }
  return undefined
}

/** What the failure says instead of the last stderr line, when that is an error escaping a tool. */
export function uncaughtDetail(uncaught: UncaughtError): string {
  const where = uncaught.file === undefined ? "" : ` (${uncaught.file})`
  return `an error escaped a tool${where} outside the promise execute returns: ${uncaught.line}; opencode printed it on stderr and went on with the call's result, and \`opencode run\` exits 1 after a throw from a timer or an event handler: catch it inside the callback`
}

// --- internal ---

/** `    at name (file:line:column)` or `    at file:line:column`, as Bun prints a stack frame. */
const FRAME = /^\s+at (?:.*? \()?(.+?)(:\d+:\d+)\)?\s*$/

/** A frame's file, relative to the sandbox's project (a copy of yours) or home. */
function shown(file: string, directories: { project: string; home: string }): string {
  for (const [root, prefix] of [
    [directories.project, ""],
    [directories.home, "~/"],
  ] as const) {
    const relative = path.relative(root, file)
    if (relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative))
      return prefix + relative.split(path.sep).join("/")
  }
  return file
}
