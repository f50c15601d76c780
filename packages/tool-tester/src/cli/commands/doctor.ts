import type { Finding } from "../../doctor/finding.ts"
import { CALL_TIMEOUT_MS, resultFindingsOf } from "../../doctor/results.ts"
import { chooseEngine } from "../../engine/choose-engine.ts"
import type { StartedEngine } from "../../engine/engine-task.ts"
import { runTaskInEngine, startEngine } from "../../engine/engine-task.ts"
import type { ProjectInput } from "../../engine/protocol.ts"
import { loadTimeoutMs } from "../../engine/task-failure.ts"
import type { DoctorPayload } from "../../tasks/doctor-task.ts"
import type { RunPayload } from "../../tasks/run-task.ts"
import type { SchemaPayload } from "../../tasks/schema-task.ts"
import type { CliIO } from "../_command.ts"
import { type LintProvider, lintProviderNamed, lintProviderOf } from "../../lint/providers.ts"
import { modelSelection } from "../../pipeline/model-selection.ts"
import { exitForProblems, MODEL_FLAGS, PROJECT_FLAGS, parseFlags, performTask, projectInput } from "../_command.ts"
import { displayDirectory } from "../project-directory.ts"
import { formatEngine, formatFindings } from "../report.ts"
import { opencodeVersionFindings } from "../../doctor/opencode-versions.ts"
import type { EngineReport } from "../../engine/task-failure.ts"

/** `tool-tester doctor`: every reason a tool will not work in opencode, one line each; exit 3 when one is an error. */
export async function doctorCommand(argv: string[], io: CliIO, worker?: StartedEngine): Promise<number> {
  const { values } = parseFlags({ args: argv, options: { ...PROJECT_FLAGS, ...MODEL_FLAGS } }, { command: "doctor" })
  const json = values.json === true
  const shownFrom = displayDirectory(io.cwd, values.dir)
  const input = { ...projectInput(values, {}, io), cwd: shownFrom, providers: askedProviders(values) }
  const task = await performTask<DoctorPayload>(io, json, { command: "doctor", input }, worker)
  if (task.exitCode !== undefined) return task.exitCode
  const findings = errorsFirst([
    ...task.payload.findings,
    ...(await calledFindings(input, values.engine, values["engine-binary"], task.payload)),
    ...(await opencodeVersionFindings({
      directory: input.directory,
      env: io.env,
      engineBinary: opencodeEngine(task.engine),
    })),
  ])
  if (json) io.write(`${JSON.stringify({ findings, engine: task.engine.info })}\n`)
  else {
    io.write(formatFindings(findings, task.payload, shownFrom))
    io.writeError(formatEngine(task.engine))
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

/**
 * BAD_RESULT findings from one call of each tool (doctor/results.ts), each in an engine of its own
 * as `run` makes it (output captured, a tool that ends its engine ends only that one).
 */
async function calledFindings(
  input: ProjectInput,
  engine: string | undefined,
  engineBinary: string | undefined,
  payload: DoctorPayload,
): Promise<Finding[]> {
  // Only for tools that load and are offered: an error (a file that fails to import, a tool list
  // opencode cannot build, an unreadable config) comes first, and the calls wait for its fix.
  if (payload.tools === 0 || payload.findings.some((finding) => finding.severity === "error")) return []
  const chosen = await chooseEngine({ engine, engineBinary, env: process.env, directory: input.directory })
  const timeouts = { loadTimeoutMs: loadTimeoutMs(), runTimeoutMs: CALL_TIMEOUT_MS, graceMs: 1_000 }
  const schemas = await runTaskInEngine(
    { command: "schema", input: { ...input, tool: undefined } },
    timeouts,
    startEngine("schema", chosen.selection),
  )
  if (schemas.kind !== "done") return []
  return resultFindingsOf((schemas.payload as SchemaPayload).tools, async (name, args) => {
    const task = {
      command: "run" as const,
      input: {
        ...input,
        name,
        args: { form: "json" as const, value: args },
        validate: false,
        deny: [],
        ask: "deny" as const,
        maxLines: undefined,
        maxBytes: undefined,
        timeoutMs: CALL_TIMEOUT_MS,
        dataDirectory: undefined,
      },
    }
    const outcome = await runTaskInEngine(task, timeouts, startEngine("run", chosen.selection))
    if (outcome.kind !== "done") return undefined
    const { result, file } = outcome.payload as RunPayload
    return { ...result, file }
  })
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
