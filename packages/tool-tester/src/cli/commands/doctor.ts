import type { Finding } from "../../doctor/finding.ts"
import { toolTesterCommand } from "../invocation.ts"
import { opencodeVersionFindings } from "../../doctor/opencode-versions.ts"
import type { StartedEngine } from "../../tasks/engine-task.ts"
import type { EngineReport } from "../../tasks/task-failure.ts"
import { type LintProvider, lintProviderNamed, lintProviderOf } from "../../lint/providers.ts"
import { modelSelection } from "../../pipeline/model-selection.ts"
import type { DoctorPayload } from "../../tasks/doctor-task.ts"
import type { CliIO } from "../_command.ts"
import type { EndedWhileLoading } from "../_command.ts"
import { exitForProblems, parseFlags, performTask, projectInput } from "../_command.ts"
import { calledFindings } from "../called-findings.ts"
import { pluginPackageHint } from "../plugin-package-hint.ts"
import { COMMAND_OPTIONS, parseConfigOf } from "../option-table.ts"
import { displayDirectory } from "../project-directory.ts"
import { formatEngine, formatFindings, noToolsHint } from "../report.ts"

/** `tool-tester doctor`: every reason a tool will not work in opencode, one line each; exit 3 when one is an error. */
export async function doctorCommand(argv: string[], io: CliIO, worker?: StartedEngine): Promise<number> {
  const { values } = parseFlags(
    { args: argv, options: parseConfigOf(COMMAND_OPTIONS.doctor) },
    { command: "doctor", run: toolTesterCommand(io) },
  )
  const json = values.json === true
  const shownFrom = displayDirectory(io.cwd, values.dir)
  const input = { ...projectInput(values, {}, io), cwd: shownFrom, providers: askedProviders(values) }
  const task = await performTask<DoctorPayload>(io, json, { command: "doctor", input }, worker, (problem) => ({
    findings: [endedWhileLoadingFinding(problem)],
  }))
  if (task.exitCode !== undefined) return task.exitCode
  const findings = errorsFirst([
    ...task.payload.findings,
    ...(await calledFindings(input, values.engine, values["engine-binary"], task.payload, io.cwd)),
    ...(await opencodeVersionFindings({
      directory: input.directory,
      env: io.env,
      engineBinary: opencodeEngine(task.engine),
      toolTester: toolTesterCommand(io),
    })),
  ])
  if (json) io.write(`${JSON.stringify({ findings, engine: task.engine.info })}\n`)
  else {
    io.write(formatFindings(findings, task.payload, shownFrom))
    const noTools = findings.length === 0 && task.payload.files === 0 && task.payload.tools === 0
    io.writeError(
      (noTools ? noToolsHint(input.directory, input.global, pluginPackageHint(input, io.cwd)) : "") +
        formatEngine(task.engine),
    )
  }
  return exitForProblems(io, json, findings)
}

// --- internal ---

/** The bun engine's binary when it is an opencode (not a plain Bun). */
function opencodeEngine(engine: EngineReport): string | undefined {
  const source = engine.source
  return engine.info.name === "bun" && (source === "path" || source === "opencode-package")
    ? engine.info.binary
    : undefined
}

/** A file that ended the engine while it was imported, as the finding a throw at import is (file apart from the message). */
function endedWhileLoadingFinding({ code, message, file }: EndedWhileLoading): Finding {
  const said = file !== undefined && message.startsWith(`${file}: `) ? message.slice(file.length + 2) : message
  return { code, severity: "error", file: file ?? null, message: said }
}

function errorsFirst(findings: Finding[]): Finding[] {
  return [
    ...findings.filter((finding) => finding.severity === "error"),
    ...findings.filter((finding) => finding.severity !== "error"),
  ]
}

/**
 * The provider `--provider`/`--model` ask about, whose rejections are then errors: a lint provider's
 * name as the matchers take it (`google`, `gemini-gateway`), or a provider and model as `schema` takes
 * them. Neither: undefined, and doctor reads the project's configured models.
 */
function askedProviders(values: {
  provider?: string | undefined
  model?: string | undefined
}): LintProvider[] | undefined {
  if (values.provider === undefined && values.model === undefined) return undefined
  const named =
    values.provider === undefined || values.model !== undefined ? undefined : lintProviderNamed(values.provider)
  return [named ?? lintProviderOf(modelSelection(values))]
}
