import { definedFields } from "../_defined-fields.ts"
import { safeStringify } from "../_json-safe.ts"
import type { Reached } from "../engine-client/protocol.ts"
import type { FuzzInput } from "./task.ts"
import { type FuzzFailure, type FuzzReport, fuzzTool } from "../fuzz/fuzz-tool.ts"
import type { Diagnostic } from "../types.ts"
import { loadProject } from "./task-project.ts"

export type FuzzPayload = FuzzReport & { runs: number; diagnostics: Diagnostic[] }

/**
 * Loads the project and fuzzes one tool. Each call says `loaded` first, with its arguments, so the
 * host's watchdog bounds every call, not the whole run, and a host that must stop the engine knows
 * which call did it; each failure is sent as it is found, so none is lost then.
 */
export async function fuzzTask(input: FuzzInput, loaded: (reached: Reached | undefined) => void): Promise<FuzzPayload> {
  const project = await loadProject(input)
  const reached = { name: input.name, id: input.name }
  loaded(reached)
  const report = await fuzzTool(project, input.name, {
    runs: input.runs,
    seed: input.seed,
    timeoutMs: input.timeoutMs,
    ...definedFields({ found: input.found, skip: input.skip }),
    onCall: (args) => loaded({ ...reached, progress: progressText({ args }) }),
    onFailure: (failure) => loaded({ ...reached, progress: progressText({ failure }) }),
  })
  return { ...report, runs: input.runs, diagnostics: project.diagnostics }
}

/** What a fuzz task's `loaded` message says, as `reached.progress` (JSON text). */
export type FuzzProgress = { args: unknown } | { failure: FuzzFailure }

function progressText(progress: FuzzProgress): string {
  return safeStringify(progress)
}
