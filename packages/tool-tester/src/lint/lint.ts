// The provider lint: runs the rules of each provider over the tools exactly as that provider would
// receive them from opencode (after opencode's fixes for it). Only what still fails is a finding.
import type { Result } from "../errors.ts"
import { getToolSchemas, listTools } from "../list-tools.ts"
import type { ToolSchema } from "../pipeline/tool-schemas.ts"
import type { ToolProject } from "../types.ts"
import { LINT_PROVIDER_NAMES, LINT_PROVIDERS, type LintProvider } from "./providers.ts"
import { LINT_RULES, type LintRule } from "./rules.ts"

export type LintFinding = {
  provider: LintProvider
  /** The rule's id, e.g. `gemini/empty-object` (docs/provider-lint.md). */
  rule: string
  severity: LintRule["severity"]
  kind: LintRule["kind"]
  /** The tool's id; for request-wide rules, the first tool. */
  tool: string
  /** One line: what the provider rejects, and where. */
  message: string
  source: string
}

/** The findings for tools as one provider receives them. Pure: give it what getToolSchemas returned for that provider. */
export function lintSchemas(
  provider: LintProvider,
  schemas: readonly ToolSchema[],
  request: { toolCount: number } = { toolCount: schemas.length },
): LintFinding[] {
  const findings: LintFinding[] = []
  const rules = LINT_RULES.filter((rule) => rule.providers.includes(provider))
  for (const [index, schema] of schemas.entries()) {
    for (const rule of rules) {
      // Request-wide rules are checked once, on the first tool.
      if (rule.kind === "request" && index > 0) continue
      for (const problem of rule.check(schema, request)) {
        findings.push({
          provider,
          rule: rule.id,
          severity: rule.severity,
          kind: rule.kind,
          tool: schema.name,
          message: rule.kind === "request" ? problem : `${schema.name}: ${problem}`,
          source: rule.source,
        })
      }
    }
  }
  return findings
}

/**
 * Builds the request for each provider's model as opencode would (tool list and schemas) and lints
 * it. Fails as getToolSchemas does when opencode could not build the tool list at all.
 */
export async function lintProject(
  project: ToolProject,
  providers: readonly LintProvider[] = LINT_PROVIDER_NAMES,
): Promise<Result<LintFinding[]>> {
  const findings: LintFinding[] = []
  for (const provider of providers) {
    const { model } = LINT_PROVIDERS[provider]
    const schemas = await getToolSchemas(project, { model })
    if (!schemas.success) return schemas
    findings.push(...lintSchemas(provider, schemas.value, { toolCount: listTools(project, { model }).length }))
  }
  return { success: true, value: findings }
}
