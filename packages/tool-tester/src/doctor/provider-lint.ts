// doctor's view of the provider lint: one finding per problem, naming every provider that rejects it.
// Tool names are left to TOOL_NAME_REJECTED, which covers every provider's name rules at once.
import type { Result } from "../errors.ts"
import { type LintFinding, lintProject } from "../lint/lint.ts"
import { LINT_PROVIDERS, type LintProvider } from "../lint/providers.ts"
import type { ToolProject } from "../types.ts"
import type { Finding } from "./finding.ts"

/** The providers doctor checks unless told otherwise: all but a Gemini gateway, which would flag every zod schema's `$schema`. */
export const DOCTOR_LINT_PROVIDERS: LintProvider[] = [
  "openai",
  "openai-compatible",
  "anthropic",
  "google",
  "moonshot",
  "mistral",
  "bedrock",
]

export async function providerLintFindings(
  project: ToolProject,
  providers: readonly LintProvider[] = DOCTOR_LINT_PROVIDERS,
): Promise<Result<Finding[]>> {
  const linted = await lintProject(project, providers)
  if (!linted.success) return linted
  const groups = new Map<string, LintFinding[]>()
  for (const finding of linted.value) {
    if (finding.kind === "name") continue
    const key = `${finding.rule}\n${finding.message}`
    groups.set(key, [...(groups.get(key) ?? []), finding])
  }
  const findings = [...groups.values()].map((group): Finding => {
    const [first] = group as [LintFinding]
    const names = group.map((finding) => finding.provider)
    const labels = names.map((name) => LINT_PROVIDERS[name].label)
    return {
      code: "PROVIDER_REJECTS",
      severity: first.severity,
      file: project.tools.find((tool) => tool.id === first.tool)?.file ?? null,
      message: `${labels.join(", ")} ${first.severity === "error" ? "rejects" : "may reject"} ${first.message} (rule ${first.rule})`,
      data: { providers: names, rule: first.rule, tool: first.tool, source: first.source },
    }
  })
  return { success: true, value: findings }
}
