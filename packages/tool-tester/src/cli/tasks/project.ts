import type { ToolTesterError } from "../../errors.ts"
import type { Diagnostic, ToolProject } from "../../load-tools.ts"
import { loadProjectHere } from "../../load-tools.ts"
import type { ProjectInput } from "../worker-protocol.ts"

/** Loads the project as the shared flags describe it, in the engine this task runs in (this imports user code). */
export function loadProject(input: ProjectInput): Promise<ToolProject> {
  return loadProjectHere({ directory: input.directory, global: input.global, plugins: input.plugins })
}

/** A failure of the tool list as a diagnostic, next to the loading ones. */
export function diagnosticOf(error: ToolTesterError): Diagnostic {
  const diagnostic: Diagnostic = { code: error.code, severity: "error", message: error.message }
  const file = error.data?.["file"]
  if (typeof file === "string") diagnostic.file = file
  if (error.data !== undefined) diagnostic.data = error.data
  return diagnostic
}
