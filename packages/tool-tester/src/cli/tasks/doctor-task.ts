import type { Finding } from "../../doctor/diagnose.ts"
import { configFinding, diagnose } from "../../doctor/diagnose.ts"
import { ToolTesterError } from "../../errors.ts"
import type { ProjectInput, Reached } from "../worker-protocol.ts"
import { loadProject } from "./project.ts"

export type DoctorPayload = { findings: Finding[]; files: number; tools: number }

/** Loads the project and lists every finding; an unreadable opencode.json is a finding too. */
export async function doctorTask(
  input: ProjectInput & { cwd: string },
  loaded: (reached: Reached | undefined) => void,
): Promise<DoctorPayload> {
  let project: Awaited<ReturnType<typeof loadProject>>
  try {
    project = await loadProject(input)
  } catch (error) {
    if (ToolTesterError.isInstance(error) && error.code === "CONFIG_INVALID") {
      return { findings: [configFinding(error)], files: 0, tools: 0 }
    }
    throw error
  }
  loaded(undefined)
  return { findings: diagnose(project, { cwd: input.cwd }), files: project.files.length, tools: project.tools.length }
}
