// Which engine a project's tools run in: the project carries the one it was loaded with
// (attachEngine, by engine-client/remote-project.ts); a project without one runs in this process.
import { described } from "../_described.ts"
import { ToolTesterError } from "../errors.ts"
import type { ToolProject } from "../types.ts"
import { inBun } from "../runtime/here.ts"
import { isRecord } from "../_is-record.ts"
import { localEngine } from "./local-engine.ts"
import type { ProjectEngine } from "./project-engine.ts"

// An enumerable symbol: a spread copy of the project still reaches its engine; JSON leaves it out.
// Symbol.for: the same registered key a bun engine's project carried before there was a handle.
const ENGINE = Symbol.for("@opencode-ai/tool-tester/bun-engine")

/** The project, carrying the engine it was loaded in (a project without one runs here). */
export function attachEngine(project: ToolProject, engine: ProjectEngine): ToolProject {
  return Object.assign(project, { [ENGINE]: engine })
}

/**
 * The engine a project's tools run in: the one it was loaded with, else this process. USAGE for a
 * value that is not a project (`runTool(undefined, ...)` when loadTools() was not awaited).
 */
export function engineOf(project: ToolProject): ProjectEngine {
  checkProject(project)
  const engine = (project as { [ENGINE]?: ProjectEngine })[ENGINE]
  if (engine !== undefined) return engine
  // Loaded by the bun engine, its tools live in that engine's process: a copy that lost the
  // engine (JSON, structuredClone, vitest's provide) holds their descriptions only. In Bun itself
  // a project is loaded here, and says "bun" too.
  if (!inBun && (project as { engine?: { name?: unknown } }).engine?.name === "bun")
    throw copied("the bun engine its tools run in")
  // Loaded here, every tool's definition has an `execute` (discovery requires the key); JSON drops
  // functions, so a copy's definitions have none.
  if (project.tools.some((tool) => isRecord(tool.definition) && !("execute" in tool.definition)))
    throw copied("its tools' functions")
  return localEngine
}

/** Throws USAGE unless `project` is shaped as what loadTools() resolves to. */
export function checkProject(project: unknown): asserts project is ToolProject {
  if (typeof project === "object" && project !== null && Array.isArray((project as { tools?: unknown }).tools)) return
  throw new ToolTesterError(
    "USAGE",
    `expected the project loadTools() resolved to (await loadTools() first), not ${described(project)}`,
    { data: { option: "project" } },
  )
}

/** A project copied where only its description crossed (JSON, vitest's provide): `lost` says what it lost. */
function copied(lost: string): ToolTesterError {
  return new ToolTesterError(
    "ENGINE_FAILED",
    `this project is a copy of what loadTools() resolved to (JSON or vitest's provide copy it), which lost ${lost}: pass the project loadTools() returned, or a spread copy of it ({ ...project }), or call loadTools() in the test file`,
    { data: { option: "project" } },
  )
}
