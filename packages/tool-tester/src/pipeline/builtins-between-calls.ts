// The built-ins between two calls. A tool's code can keep running after its call returned (a timer,
// a promise it left) and change the built-ins then: the next call, of whichever tool, would be
// blamed by the check after its execute (execute-call.ts). So each call looks at them first.
// - In a process where only tools run besides tool-tester (an engine's process, the CLI), a change
//   found then is put back and blamed on what ran last: the tool of the last call, whose file then
//   fails its calls with TOOL_TAMPERED as a file that changed them while loaded does, or the
//   project's files, loaded since. The call itself runs as usual.
// - In the caller's own process (the library's node engine, a `bun test` file), a change found then
//   can be the caller's own (`vi.useFakeTimers()`): it stays, and the call's changes are checked
//   against the built-ins as the call found them, and put back to that.
import { changedBuiltins, changedBuiltinsNow, restoreBuiltins, restoreBuiltinsTo } from "../_pristine.ts"
import type { LoadedTool, ToolProject } from "../types.ts"

let onlyTools = false
let lastRan: { project: ToolProject; tool: LoadedTool } | undefined

/** This process runs tools and tool-tester only: what changes the built-ins between calls is a tool's. */
export function builtinsAreTheTools(): void {
  onlyTools = true
}

/** The tool whose code runs now (its hooks, its execute): blamed for changes found before the next call. */
export function toolRuns(project: ToolProject, tool: LoadedTool): void {
  lastRan = { project, tool }
}

export type CallStart = {
  /** Puts back what the call changed of the built-ins, and says what that was. */
  restore: () => string[]
  /** What a tool changed since the last call and could not be put back (listed): the call must not run. */
  lasting?: { changed: string; by: string }
}

/** Looks at the built-ins before a call of `project` runs anything: see the top of this file. */
export function builtinsAtCallStart(project: ToolProject): CallStart {
  if (!onlyTools) {
    const kept = changedBuiltinsNow()
    return { restore: kept.length === 0 ? restoreBuiltins : () => restoreBuiltinsTo(kept) }
  }
  const changed = restoreBuiltins()
  if (changed.length === 0) return { restore: restoreBuiltins }
  const blamed = lastRan
  const by = blamed === undefined ? `code the project's files left running` : `code ${blamed.tool.id} left running`
  if (blamed !== undefined) blameAfterCall(blamed.project, blamed.tool.file, changed)
  else blameAfterLoad(project, changed)
  const lasting = changedBuiltins()
  return lasting.length === 0
    ? { restore: restoreBuiltins }
    : { restore: restoreBuiltins, lasting: { changed: listChanges(lasting), by } }
}

/** `a, b, c`, without Array.prototype.join: a change that could not be put back may be to it. */
export function listChanges(changed: string[]): string {
  let text = ""
  for (let index = 0; index < changed.length; index++) text += (index === 0 ? "" : ", ") + changed[index]
  return text
}

// --- internal ---

/** A TOOL_TAMPERED error on the file, as load-tools.ts records one made while it was loaded. */
function blameAfterCall(project: ToolProject, file: string, changed: string[]): void {
  if (project.diagnostics.some((found) => found.code === "TOOL_TAMPERED" && found.file === file)) return
  project.diagnostics.push({
    code: "TOOL_TAMPERED",
    severity: "error",
    file,
    message: `${file}: code it left running after a call returned changed the engine's built-ins (${listChanges(changed)}); tools run in opencode's own process, so this breaks opencode itself: use functions of your own instead`,
    data: { changed, when: "after-call" },
  })
}

/** No call ran since the project loaded: no one file to blame, so the project is. */
function blameAfterLoad(project: ToolProject, changed: string[]): void {
  if (project.diagnostics.some((found) => found.code === "TOOL_TAMPERED" && found.file === undefined)) return
  project.diagnostics.push({
    code: "TOOL_TAMPERED",
    severity: "error",
    message: `code the project's tool files or plugins left running after they were loaded changed the engine's built-ins (${listChanges(changed)}); tools run in opencode's own process, so this breaks opencode itself: use functions of your own instead`,
    data: { changed, when: "after-load" },
  })
}
