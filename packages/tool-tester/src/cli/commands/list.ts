import type { StartedEngine } from "../../tasks/engine-task.ts"
import type { ListPayload } from "../../tasks/list-task.ts"
import type { CliIO } from "../_command.ts"
import { toolTesterCommand } from "../invocation.ts"
import { endedWhileLoadingDiagnostic, exitForProblems, parseFlags, performTask, projectInput } from "../_command.ts"
import { pluginPackageHint } from "../plugin-package-hint.ts"
import { COMMAND_OPTIONS, parseConfigOf } from "../option-table.ts"
import { displayDirectory } from "../project-directory.ts"
import { formatDiagnostics, formatEngine, formatList, noToolsHint } from "../report.ts"

/** `tool-tester list`: the tools opencode would offer, in its order; exit 3 when loading failed or the list would break. */
export async function listCommand(argv: string[], io: CliIO, worker?: StartedEngine): Promise<number> {
  const { values } = parseFlags(
    { args: argv, options: parseConfigOf(COMMAND_OPTIONS.list) },
    { command: "list", run: toolTesterCommand(io) },
  )
  const json = values.json === true
  const input = projectInput(values, values, io)
  const task = await performTask<ListPayload>(io, json, { command: "list", input }, worker, (problem) => ({
    tools: [],
    hidden: [],
    diagnostics: [endedWhileLoadingDiagnostic(problem)],
  }))
  if (task.exitCode !== undefined) return task.exitCode
  const { tools, hidden, diagnostics } = task.payload
  if (json) io.write(`${JSON.stringify({ tools, hidden, diagnostics, engine: task.engine.info })}\n`)
  else {
    const shownFrom = displayDirectory(io.cwd, values.dir)
    io.write(formatList(tools, input.model, shownFrom, hidden))
    const noTools = diagnostics.length === 0 && tools.every((tool) => tool.source === "builtin")
    io.writeError(
      formatDiagnostics(diagnostics, shownFrom) +
        (noTools ? noToolsHint(input.directory, input.global, pluginPackageHint(input, io.cwd)) : "") +
        formatEngine(task.engine),
    )
  }
  return exitForProblems(io, json, diagnostics)
}
