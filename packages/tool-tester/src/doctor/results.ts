// A result opencode cannot send (a number, an object without `output`) fails every call of the
// tool inside opencode (docs/opencode-contract.md#bad-results), and nothing in the file's exports or
// schema shows it. doctor calls each custom and plugin tool once, with example arguments made from
// the schema the model receives (the starter script's), and reports a result that is not text.
// context.ask() is denied, so a tool that asks before acting does not act; a tool that throws on
// made-up arguments or takes longer than the bound says nothing about its result: no finding. A
// tool that ends its engine (process.exit, a signal, out of memory) would end opencode with it:
// ENDS_OPENCODE, an error. An error that escapes the call (a promise left to reject, a throw in a timer) is a
// warning: opencode prints it and goes on (docs/opencode-contract.md#escaped-errors). Called from
// the Node side on a project loaded with loadTools(), so a tool that ends the engine
// (process.exit) ends that engine only, not the report.
import { exampleArguments } from "../e2e/starter-script.ts"
import { escapedAdvice, escapedHow } from "../runtime/escaped-advice.ts"
import { getToolSchemas } from "../list-tools.ts"
import { runTool } from "../run-tool.ts"
import type { EscapedError, ToolProject } from "../types.ts"
import type { Finding } from "./finding.ts"

/** How long one call may take before doctor leaves it (it is only looking at the result's type). */
export const CALL_TIMEOUT_MS = 5_000

/** What one call gave: the error code of run's result, and the text the model reads. */
type Called =
  | {
      output: string
      error?: { code: string; message: string } | undefined
      escapedErrors?: EscapedError[] | undefined
      /** The tool's file, when the caller knows it. */
      file?: string | undefined
    }
  | undefined

/**
 * One call of each tool of a loaded project (the matcher's side), each bound by `timeoutMs`. Once
 * `signal` is aborted no call starts, the running one gets it, and this rejects with its reason.
 */
export async function resultFindings(
  project: ToolProject,
  { timeoutMs = CALL_TIMEOUT_MS, signal }: { timeoutMs?: number | undefined; signal?: AbortSignal | undefined } = {},
): Promise<Finding[]> {
  const schemas = await getToolSchemas(project)
  if (!schemas.success) return []
  const files = new Map(project.tools.map((tool) => [tool.id, tool.file]))
  const options = { timeoutMs, permissions: { ask: "deny" as const }, ...(signal === undefined ? {} : { signal }) }
  const findings = await resultFindingsOf(
    schemas.value,
    (name, args) => {
      signal?.throwIfAborted()
      return runTool(project, name, args, options)
    },
    files,
  )
  // A call the signal ended says nothing about the tool: the run was stopped, not finished.
  signal?.throwIfAborted()
  return findings
}

/**
 * One call of each tool, made by `call` (the CLI makes it in an engine of its own), as findings.
 * One after another, although opencode runs a model step's calls at once: calls running together in
 * one engine share what happens to it (an escaped error is listed by each, a tool's process.exit
 * fails each with TOOL_EXITED, an engine stopped past one's bound ends the others INTERRUPTED), so a
 * finding could name the wrong tool, or depend on timing (docs/testing-a-tool.md#what-doctor-would-flag).
 */
export async function resultFindingsOf(
  schemas: ReadonlyArray<{ name: string; parameters: unknown }>,
  call: (name: string, args: Record<string, unknown>) => Promise<Called>,
  files: ReadonlyMap<string, string> = new Map(),
): Promise<Finding[]> {
  const findings: Finding[] = []
  for (const schema of schemas) {
    const args = exampleArguments(schema.parameters)
    const result = await call(schema.name, args)
    for (const escaped of result?.escapedErrors ?? []) {
      findings.push({
        code: "ESCAPED_ERROR",
        severity: "warning",
        file: files.get(schema.name) ?? result?.file ?? null,
        message: `${schema.name} called with ${JSON.stringify(args)}: ${escaped.message} escaped it (${escapedHow(escaped.kind)}); ${escapedAdvice(escaped.kind)}`,
        data: { tool: schema.name, args, kind: escaped.kind },
      })
    }
    if (result?.error?.code === "TOOL_EXITED") {
      findings.push({
        code: "ENDS_OPENCODE",
        severity: "error",
        file: files.get(schema.name) ?? result.file ?? null,
        message: `${schema.name} called with ${JSON.stringify(args)}: ${result.error.message}`,
        data: { tool: schema.name, args },
      })
      continue
    }
    if (result?.error?.code !== "TOOL_BAD_RESULT") continue
    const file = files.get(schema.name) ?? fileOf(result.error.message)
    findings.push({
      code: "BAD_RESULT",
      severity: "error",
      file: file ?? null,
      message: `${schema.name} called with ${JSON.stringify(args)}: ${withoutPrefix(result.error.message, file, schema.name)}; in opencode every call of it fails with "${result.output}"`,
      data: { tool: schema.name, args },
    })
  }
  return findings
}

/** run's message starts with `FILE: ID: ` for a tool file. */
function fileOf(message: string): string | undefined {
  const match = /^(.+?): [^:\s]+: execute returned /.exec(message)
  return match?.[1]
}

/** The message without run's `FILE: ID: ` prefix: the finding names the file, and the tool first. */
function withoutPrefix(message: string, file: string | undefined, id: string): string {
  const prefix = `${file === undefined ? "" : `${file}: `}${id}: `
  return message.startsWith(prefix) ? message.slice(prefix.length) : message
}
