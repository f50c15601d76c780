import type { Finding } from "../doctor/diagnose.ts"
import { configFinding, diagnose } from "../doctor/diagnose.ts"
import { providerLintFindings } from "../doctor/provider-lint.ts"
import type { ProjectInput, Reached } from "../engine/protocol.ts"
import { ToolTesterError } from "../errors.ts"
import type { LintProvider } from "../lint/providers.ts"
import { loadProject } from "./task-project.ts"

export type DoctorPayload = { findings: Finding[]; files: number; tools: number }

/** Loads the project and lists every finding; an unreadable opencode.json is a finding too. */
export async function doctorTask(
  input: ProjectInput & { cwd: string; lintProviders?: LintProvider[] },
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
  const findings = diagnose(project, { cwd: input.cwd })
  // A project whose schemas cannot be built at all is already a finding of diagnose.
  const linted = await providerLintFindings(project, input.lintProviders)
  if (linted.success) findings.push(...linted.value)
  return { findings: errorsFirst(findings), files: project.files.length, tools: project.tools.length }
}

function errorsFirst(findings: Finding[]): Finding[] {
  return [
    ...findings.filter((finding) => finding.severity === "error"),
    ...findings.filter((finding) => finding.severity !== "error"),
  ]
}
