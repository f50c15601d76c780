// The provider lint: runs the rules of each provider over the tools exactly as that provider would
// receive them from opencode (after opencode's fixes for it). Only what still fails is a finding.
import { closestMatch } from "../did-you-mean.ts"
import { described } from "../_described.ts"
import { isRecord } from "../_is-record.ts"
import { ToolTesterError, type Result } from "../errors.ts"
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
  // The whole request's tool count (built-ins included); by default, these schemas'.
  given?: { toolCount: number },
): LintFinding[] {
  checkProvider("lintSchemas", provider)
  if (
    !Array.isArray(schemas as unknown) ||
    !schemas.every((schema) => isRecord(schema) && typeof schema["name"] === "string")
  )
    throw usage(
      `lintSchemas's schemas must be the list getToolSchemas() gives (its value: { name, description, parameters } each), not ${described(schemas)}`,
      "schemas",
    )
  const request = given ?? { toolCount: schemas.length }
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
  if (!Array.isArray(providers as unknown)) {
    const hint = typeof providers === "string" ? `: write [${JSON.stringify(providers)}]` : ""
    throw usage(
      `lintProject's providers must be a list of provider names, not ${described(providers)}${hint}`,
      "providers",
    )
  }
  for (const provider of providers) checkProvider("lintProject", provider)
  const findings: LintFinding[] = []
  for (const provider of providers) {
    const { model } = LINT_PROVIDERS[provider]
    const schemas = await getToolSchemas(project, { model })
    if (!schemas.success) return schemas
    findings.push(...lintSchemas(provider, schemas.value, { toolCount: listTools(project, { model }).length }))
  }
  return { success: true, value: findings }
}

// --- internal ---

/** A name the lint has no rules for would lint nothing and pass: USAGE naming it, with the closest. */
function checkProvider(caller: string, provider: unknown): void {
  if (typeof provider === "string" && (LINT_PROVIDER_NAMES as readonly string[]).includes(provider)) return
  const match = typeof provider === "string" ? closestMatch(provider, LINT_PROVIDER_NAMES) : undefined
  throw usage(
    `${caller}: unknown provider ${described(provider)}: ${match === undefined ? "" : `did you mean ${match}? `}use one of ${LINT_PROVIDER_NAMES.join(", ")}`,
    "provider",
  )
}

function usage(message: string, option: string): ToolTesterError {
  return new ToolTesterError("USAGE", message, { data: { option } })
}
