// What every task shares: how it loads the project, and how it reports what it reached.
import type { Reached } from "../engine-client/protocol.ts"
import type { ProjectInput, Task, TaskCommand } from "./task.ts"
import type { ToolTesterError } from "../errors.ts"
import { loadProjectHere } from "../load-tools.ts"
import type { Diagnostic, ToolProject } from "../types.ts"

/** What the engine does with a command's task; `loaded` says the tools are loaded (and which one a run reaches). */
export type PerformTask<C extends TaskCommand> = (
  input: Extract<Task, { command: C }>["input"],
  loaded: (reached: Reached | undefined) => void,
) => Promise<unknown>

/** Where the engine sends what the opencode server behind `input.client` prints (set by engine/serve.ts). */
export const taskEvents: { onServerLog: ((line: string) => void) | undefined } = { onServerLog: undefined }

/** Loads the project as the shared flags describe it, in the engine this task runs in (this imports user code). */
export function loadProject(input: ProjectInput): Promise<ToolProject> {
  const onServerLog = input.verbose ? taskEvents.onServerLog : undefined
  return loadProjectHere({
    directory: input.directory,
    global: input.global,
    plugins: input.plugins,
    ...(onServerLog ? { onServerLog } : {}),
  })
}

/** A failure of the tool list as a diagnostic, next to the loading ones. */
export function diagnosticOf(error: ToolTesterError): Diagnostic {
  const diagnostic: Diagnostic = { code: error.code, severity: "error", message: error.message }
  const file = error.data?.["file"]
  if (typeof file === "string") diagnostic.file = file
  if (error.data !== undefined) diagnostic.data = error.data
  return diagnostic
}
