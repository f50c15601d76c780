// A result opencode cannot send (a number, an object without `output`) fails every call of the
// tool inside opencode (docs/opencode-contract.md#bad-results), and nothing in the file's exports or
// schema shows it. doctor calls each custom and plugin tool once, with example arguments made from
// the schema the model receives (the starter script's), and reports a result that is not text.
// context.ask() is denied, so a tool that asks before acting does not act; a tool that throws on
// made-up arguments, or takes longer than the bound, says nothing about its result: no finding.
import { exampleArguments } from "../e2e/starter-script.ts"
import { getToolSchemas } from "../list-tools.ts"
import { runTool } from "../run-tool.ts"
import type { ToolProject } from "../types.ts"
import type { Finding } from "./finding.ts"

/** How long one call may take before doctor leaves it (it is only looking at the result's type). */
const CALL_TIMEOUT_MS = 5_000

export async function resultFindings(project: ToolProject): Promise<Finding[]> {
  const schemas = await getToolSchemas(project)
  if (!schemas.success) return []
  const findings: Finding[] = []
  for (const schema of schemas.value) {
    const args = exampleArguments(schema.parameters)
    const result = await runTool(project, schema.name, args, {
      timeoutMs: CALL_TIMEOUT_MS,
      permissions: { ask: "deny" },
    })
    if (result.error?.code !== "TOOL_BAD_RESULT") continue
    const tool = project.tools.find((candidate) => candidate.id === schema.name)
    findings.push({
      code: "BAD_RESULT",
      severity: "error",
      file: tool?.file ?? null,
      message: `${schema.name} called with ${JSON.stringify(args)}: ${withoutPrefix(result.error.message, tool?.file, schema.name)}; in opencode every call of it fails with "${result.output}"`,
      data: { tool: schema.name, args },
    })
  }
  return findings
}

/** The message without run's `FILE: ID: ` prefix: the finding names the file, and the tool first. */
function withoutPrefix(message: string, file: string | undefined, id: string): string {
  const prefix = `${file === undefined ? "" : `${file}: `}${id}: `
  return message.startsWith(prefix) ? message.slice(prefix.length) : message
}
