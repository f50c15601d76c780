// doctor's view of the provider lint: one finding per problem, naming every provider that rejects it.
// Tool names are left to TOOL_NAME_REJECTED, which covers every provider's name rules at once, and a
// tool whose args are a zod schema itself to its NON_ZOD_ARGS error (schema-as-args.ts): what
// providers make of the internals opencode then sends only follows from that one mistake.
import type { Result } from "../errors.ts"
import { type LintFinding, lintProject } from "../lint/lint.ts"
import { configuredModels, LINT_PROVIDERS, type LintProvider, lintProviderOf } from "../lint/providers.ts"
import { liveDefinition } from "../pipeline/live.ts"
import type { ToolProject } from "../types.ts"
import type { Finding } from "./finding.ts"
import { isSchemaAsArgs } from "./schema-as-args.ts"

/** The providers doctor checks unless told otherwise: all but a Gemini gateway, which would flag every zod schema's `$schema`. */
const DOCTOR_LINT_PROVIDERS: LintProvider[] = [
  "openai",
  "openai-compatible",
  "anthropic",
  "google",
  "moonshot",
  "mistral",
  "bedrock",
]

/**
 * The providers whose rejections are errors: the ones asked about (`doctor --provider/--model`),
 * else those of the models the project's opencode.json names; none when it names none (then every
 * provider's rejections are errors, as nothing says which one the user runs).
 */
function usedProviders(project: ToolProject, asked: readonly LintProvider[] | undefined): LintProvider[] {
  const used = asked ?? configuredModels(project.config).map(lintProviderOf)
  return [...new Set(used)]
}

/**
 * The provider lint as doctor reports it. A rejection by a provider the project uses (usedProviders)
 * keeps its severity; one only by others is a warning, which names how to check it as an error.
 */
export async function providerLintFindings(
  project: ToolProject,
  options: { asked?: readonly LintProvider[] | undefined } = {},
): Promise<Result<Finding[]>> {
  const used = usedProviders(project, options.asked)
  const providers = [...new Set([...DOCTOR_LINT_PROVIDERS, ...used])]
  const linted = await lintProject(project, providers)
  if (!linted.success) return linted
  const schemaArgs = new Set(project.tools.filter(argsAreSchema).map((tool) => tool.id))
  const groups = new Map<string, LintFinding[]>()
  for (const finding of linted.value) {
    if (finding.kind === "name" || schemaArgs.has(finding.tool)) continue
    const key = `${finding.rule}\n${finding.message}`
    groups.set(key, [...(groups.get(key) ?? []), finding])
  }
  const findings = [...groups.values()].map((group): Finding => {
    const [first] = group as [LintFinding]
    const names = group.map((finding) => finding.provider)
    const labels = names.map((name) => LINT_PROVIDERS[name].label)
    const unused = used.length > 0 && !names.some((name) => used.includes(name))
    const severity = first.severity === "error" && unused ? "warning" : first.severity
    const note =
      first.severity === "error" && unused
        ? `; not a provider this project's model uses (${used.join(", ")}): check it as an error with doctor --provider ${names[0]}`
        : ""
    return {
      code: "PROVIDER_REJECTS",
      severity,
      file: project.tools.find((tool) => tool.id === first.tool)?.file ?? null,
      message: `${labels.join(", ")} ${first.severity === "error" ? "rejects" : "may reject"} ${first.message} (rule ${first.rule})${note}`,
      data: { providers: names, rule: first.rule, tool: first.tool, source: first.source },
    }
  })
  return { success: true, value: findings }
}

// --- internal ---

/** A tool whose args are a zod schema itself: its NON_ZOD_ARGS error covers what providers reject. */
function argsAreSchema(tool: ToolProject["tools"][number]): boolean {
  try {
    return isSchemaAsArgs(liveDefinition(tool).args)
  } catch {
    // Args whose reads throw are SCHEMA_UNREPRESENTABLE (args-schema.ts); their lint is left as it is.
    return false
  }
}
