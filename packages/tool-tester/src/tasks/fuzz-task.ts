import type { FuzzInput, Reached } from "../engine/protocol.ts"
import { type FuzzReport, fuzzTool } from "../fuzz/fuzz-tool.ts"
import type { Diagnostic } from "../types.ts"
import { loadProject } from "./task-project.ts"

export type FuzzPayload = FuzzReport & { runs: number; diagnostics: Diagnostic[] }

/** Loads the project and fuzzes one tool. Each call says `loaded` first, so the host's watchdog bounds every call, not the whole run. */
export async function fuzzTask(input: FuzzInput, loaded: (reached: Reached | undefined) => void): Promise<FuzzPayload> {
  const project = await loadProject(input)
  const reached = { name: input.name, id: input.name }
  loaded(reached)
  const report = await fuzzTool(project, input.name, {
    runs: input.runs,
    seed: input.seed,
    timeoutMs: input.timeoutMs,
    onCall: () => loaded(reached),
  })
  return { ...report, runs: input.runs, diagnostics: project.diagnostics }
}
