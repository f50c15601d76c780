import type { StartedEngine } from "../../tasks/engine-task.ts"
import type { SchemaPayload } from "../../tasks/schema-task.ts"
import type { CliIO } from "../_command.ts"
import { toolTesterCommand } from "../invocation.ts"
import { endedWhileLoadingDiagnostic, exitForProblems, parseFlags, performTask, projectInput } from "../_command.ts"
import { COMMAND_OPTIONS, parseConfigOf } from "../option-table.ts"
import { displayDirectory } from "../project-directory.ts"
import { formatDiagnostics, formatEngine, formatSchemas } from "../report.ts"

/** `tool-tester schema`: the custom and plugin tools exactly as the provider receives them for that model. */
export async function schemaCommand(argv: string[], io: CliIO, worker?: StartedEngine): Promise<number> {
  const { values } = parseFlags(
    { args: argv, options: parseConfigOf(COMMAND_OPTIONS.schema) },
    { command: "schema", run: toolTesterCommand(io), toolOption: true },
  )
  const json = values.json === true
  const input = { ...projectInput(values, values, io), tool: values.tool }
  const task = await performTask<SchemaPayload>(io, json, { command: "schema", input }, worker, (problem) => ({
    tools: [],
    diagnostics: [endedWhileLoadingDiagnostic(problem)],
  }))
  if (task.exitCode !== undefined) return task.exitCode
  const { tools, diagnostics } = task.payload
  if (json) io.write(`${JSON.stringify({ tools, diagnostics, engine: task.engine.info })}\n`)
  else {
    const failed = diagnostics.some((diagnostic) => diagnostic.severity === "error")
    io.write(formatSchemas(tools, input.model, failed))
    io.writeError(formatDiagnostics(diagnostics, displayDirectory(io.cwd, values.dir)) + formatEngine(task.engine))
  }
  return exitForProblems(io, json, diagnostics)
}
