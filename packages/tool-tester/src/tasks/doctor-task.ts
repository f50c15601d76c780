import type { Finding } from "../doctor/diagnose.ts"
import { configFinding, diagnose } from "../doctor/diagnose.ts"
import { providerLintFindings } from "../doctor/provider-lint.ts"
import type { Reached } from "../engine-client/protocol.ts"
import type { ProjectInput } from "./task.ts"
import { ToolTesterError } from "../errors.ts"
import type { LintProvider } from "../lint/providers.ts"
import type { ToolProject } from "../types.ts"
import { loadProject } from "./task-project.ts"

export type DoctorPayload = {
  findings: Finding[]
  files: number
  tools: number
  /** The file of each tool id (the one opencode keeps): the findings of the calls made from the Node side name it. */
  toolFiles?: Record<string, string>
}

/**
 * What doctor is asked beyond the project: the folder paths are shown from, and the providers whose
 * rejections are errors (`--provider/--model`; without, those of the project's configured models).
 */
export type DoctorOptions = { cwd: string; providers?: LintProvider[] | undefined }

/** Loads the project and lists every finding; an unreadable opencode.json is a finding too. */
export async function doctorTask(
  input: ProjectInput & DoctorOptions,
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
  return doctorProject(project, input)
}

/**
 * Every finding for a project loaded in this engine, errors first: the one list both `tool-tester
 * doctor` and the `toLoadInOpencode()` matcher read, so a test fails exactly when doctor would.
 * Both add the results of one call of each tool (doctor/results.ts), made from the Node side, where
 * a tool that ends its engine cannot take the report with it.
 */
export async function doctorProject(project: ToolProject, options: DoctorOptions): Promise<DoctorPayload> {
  const findings = diagnose(project, { cwd: options.cwd })
  // A project whose schemas cannot be built at all is already a finding of diagnose.
  const linted = await providerLintFindings(project, { asked: options.providers })
  if (linted.success) findings.push(...linted.value)
  return {
    findings: errorsFirst(findings),
    files: project.files.length,
    tools: project.tools.length,
    toolFiles: Object.fromEntries(project.tools.map((tool) => [tool.id, tool.file])),
  }
}

function errorsFirst(findings: Finding[]): Finding[] {
  return [
    ...findings.filter((finding) => finding.severity === "error"),
    ...findings.filter((finding) => finding.severity !== "error"),
  ]
}
