// The installed plugin loaded by name from its fresh opencode project, in an engine (a worker
// thread, or a Bun process), never in the CLI's own thread: doctor's findings about it (a plugin
// opencode rejects, zod copies, names, schemas), the tool ids it offers, and one smoke call per
// tool with arguments that fit its schema, judged only by whether opencode could send the result.
// With e2e, the real opencode loads the same install and calls each tool once.

import { definedFields } from "../_defined-fields.ts"
import { shellWord } from "../_shell-quote.ts"
import type { Finding } from "../doctor/finding.ts"
import type { E2EResult } from "../e2e/e2e-result.ts"
import { runE2E } from "../e2e/run-e2e.ts"
import type { EngineSelection } from "../engine-client/choose-engine.ts"
import type { TaskOutcome } from "../tasks/engine-task.ts"
import { runTaskInEngine, startEngine } from "../tasks/engine-task.ts"
import type { Task } from "../tasks/task.ts"
import type { EngineReport } from "../tasks/task-failure.ts"
import { engineReport, loadFailure, loadTimeoutMs } from "../tasks/task-failure.ts"
import { ToolTesterError } from "../errors.ts"
import { modelSelection } from "../pipeline/model-selection.ts"
import type { DoctorPayload } from "../tasks/doctor-task.ts"
import { pairsFor } from "../tasks/key-value-args.ts"
import type { RunPayload } from "../tasks/run-task.ts"
import type { SchemaPayload } from "../tasks/schema-task.ts"
import type { InstalledPlugin } from "./install-tarball.ts"
import type { LoadedReport } from "./preflight.ts"
import { smokeArguments } from "./smoke-arguments.ts"

export type SmokeRun = {
  tool: string
  args: unknown
  status: "completed" | "error"
  /** What the model would read. */
  output: string
  error?: { code: string; message: string }
}

/** What preflight keeps of the real opencode's run. */
export type E2ESummary = {
  opencode: string
  exitCode: number | null
  /** The tool names of opencode's first request, built-ins included. */
  offered: Array<string | undefined>
  /** `ran` is the tool opencode ran: `invalid` when it rerouted the call. */
  calls: Array<{ tool: string; ran: string | null; status: string | null; result: string | null; error: string | null }>
  errors: E2EResult["errors"]
}

export type LoadOptions = {
  selection: EngineSelection
  /** Bound of each smoke call. */
  timeoutMs: number
  /** Also run the real opencode on the install. */
  e2e: boolean
  /** The opencode binary the e2e run starts (default: the one found from the install's project). */
  opencode?: string
  onStep?: (step: string) => void
  /** Stops between tasks (Ctrl-C). */
  signal?: AbortSignal
  /** The package folder as a `--plugin` path from where preflight runs (`.` there), for the command a finding prints. */
  pluginPath?: string
}

/** After a call's timeout fired its abort signal: how long before a busy engine is stopped. */
const GRACE_MS = 1_000

export async function loadInstalled(
  installed: InstalledPlugin,
  options: LoadOptions,
): Promise<LoadedReport & { engine: EngineReport | undefined }> {
  const step = (name: string) => {
    options.signal?.throwIfAborted()
    options.onStep?.(name)
  }
  const project = { directory: installed.project, global: false, plugins: [], model: modelSelection({}) }
  step(`loading ${installed.spec} by name, as opencode loads it`)
  const doctor = await isolated({ command: "doctor", input: { ...project, cwd: installed.packageFolder } }, options)
  const engine = engineReport(doctor)
  const failed = failureOf(doctor)
  if (failed) return { findings: [failed], tools: [], runs: [], engine }
  const findings = [...(doctor.kind === "done" ? (doctor.payload as DoctorPayload).findings : [])]

  const schemas = await isolated({ command: "schema", input: { ...project, tool: undefined } }, options)
  const schemaFailure = failureOf(schemas)
  if (schemaFailure || schemas.kind !== "done")
    return { findings: [...findings, ...[schemaFailure ?? []].flat()], tools: [], runs: [], engine }
  const tools = (schemas.payload as SchemaPayload).tools
  const loadErrors = findings.some((finding) => finding.severity === "error")
  if (tools.length === 0 && !loadErrors) {
    findings.push({
      code: "PLUGIN_NO_TOOLS",
      severity: "warning",
      file: null,
      message: `${installed.spec} loads but offers no tool: return them from the plugin function's tool hook ({ tool: { name: tool({...}) } })`,
    })
  }

  const runs: SmokeRun[] = []
  for (const tool of tools) {
    step(`calling ${tool.name} once`)
    const args = await smokeArguments(tool.parameters)
    const run = await smokeRun(project, tool.name, args, options)
    runs.push(run)
    const finding = smokeFinding(run, installed, options.pluginPath ?? ".")
    if (finding) findings.push(finding)
  }
  const report: LoadedReport & { engine: EngineReport | undefined } = {
    findings,
    tools: tools.map((tool) => tool.name),
    runs,
    engine,
  }
  if (options.e2e) {
    step("running the real opencode on the install")
    const e2e = await runE2E({
      directory: installed.project,
      script: {
        turns: [
          ...(runs.length === 0
            ? []
            : [{ calls: runs.map((run) => ({ tool: run.tool, args: run.args as Record<string, unknown> })) }]),
          { text: "done" },
        ],
      },
      timeoutMs: 180_000,
      ...definedFields({ signal: options.signal, opencode: options.opencode }),
    }).catch((error: unknown) => {
      const partial = ToolTesterError.isInstance(error) ? (error.data?.["result"] as E2EResult | undefined) : undefined
      if (partial) return partial
      throw error
    })
    report.e2e = e2eSummary(e2e)
    findings.push(...e2eFindings(e2e, report.tools, installed))
  }
  return report
}

// --- internal ---

/** The task in an engine of its own. Ctrl-C ends the engine at once and throws: a plugin whose init hangs would hold it to the load bound. */
async function isolated(task: Task, options: LoadOptions, runTimeoutMs?: number): Promise<TaskOutcome> {
  const loadTimeout = loadTimeoutMs()
  const started = startEngine(task.command, options.selection)
  const stop = () => started.end()
  if (options.signal?.aborted) stop()
  options.signal?.addEventListener("abort", stop, { once: true })
  try {
    const outcome = await runTaskInEngine(
      task,
      {
        loadTimeoutMs: loadTimeout,
        runTimeoutMs: runTimeoutMs ?? loadTimeout,
        graceMs: runTimeoutMs === undefined ? 0 : GRACE_MS,
      },
      started,
    )
    // An engine the signal ended is no finding about the plugin.
    options.signal?.throwIfAborted()
    return outcome
  } finally {
    options.signal?.removeEventListener("abort", stop)
  }
}

/** A load that failed in the engine (a throw, a timeout or an exit while importing) as a finding; an engine that cannot start throws. */
function failureOf(outcome: TaskOutcome): Finding | undefined {
  const failure = loadFailure(outcome, loadTimeoutMs())
  if (!failure && outcome.kind === "done") return undefined
  if (failure?.code === "ENGINE_FAILED") throw new ToolTesterError("ENGINE_FAILED", failure.message)
  const file = outcome.loadingFile ?? null
  const message = failure?.message ?? "the engine ended without an answer while loading the plugin"
  return {
    code: "PLUGIN_LOAD_FAILED",
    severity: "error",
    file,
    // The message starts with the file for the commands that print it alone; here the finding names it.
    message: file !== null && message.startsWith(`${file}: `) ? message.slice(file.length + 2) : message,
  }
}

async function smokeRun(
  project: { directory: string; global: boolean; plugins: string[]; model: ReturnType<typeof modelSelection> },
  name: string,
  args: unknown,
  options: LoadOptions,
): Promise<SmokeRun> {
  const input = {
    ...project,
    name,
    args: { form: "json" as const, value: args },
    validate: false,
    deny: [],
    maxLines: undefined,
    maxBytes: undefined,
    timeoutMs: options.timeoutMs,
    dataDirectory: undefined,
  }
  const outcome = await isolated({ command: "run", input }, options, options.timeoutMs)
  if (outcome.kind === "done") {
    const { result } = outcome.payload as RunPayload
    const run: SmokeRun = { tool: name, args, status: result.status, output: result.output }
    if (result.error) run.error = { code: result.error.code, message: result.error.message }
    return run
  }
  const error =
    outcome.kind === "timeout"
      ? { code: "TOOL_TIMEOUT", message: `the call did not finish within ${options.timeoutMs} ms` }
      : outcome.kind === "exited"
        ? {
            code: "TOOL_EXITED",
            message: outcome.crash
              ? `the engine ended while the tool ran: ${outcome.crash}`
              : `the tool ended its process (exit code ${outcome.exitCode}); under opencode that stops opencode itself`,
          }
        : {
            code: outcome.kind === "failed" ? outcome.error.code : "INTERNAL",
            message: outcome.kind === "failed" ? outcome.error.message : "the engine ended without an answer",
          }
  return { tool: name, args, status: "error", output: error.message, error }
}

/**
 * Only what opencode could not send back is a failure: a result it cannot turn into text, or a
 * tool that ends the process. A tool that throws on made-up arguments is answered with its message.
 */
function smokeFinding(run: SmokeRun, installed: InstalledPlugin, pluginPath: string): Finding | undefined {
  const code = run.error?.code
  if (code === undefined || code === "TOOL_THREW") return undefined
  const args = JSON.stringify(run.args)
  const shown = args.length > 200 ? `${args.slice(0, 197)}...` : args
  const pairs = pairsFor(run.args)
  // From where preflight ran (the package folder, where tool-tester is installed: the scoped name
  // runs that copy): --plugin loads the folder as opencode loads a path plugin.
  const pasted = [
    "npx @opencode-ai/tool-tester run",
    run.tool,
    `--plugin ${shellWord(pluginPath)}`,
    ...(pairs ?? [shown === args ? `--args ${shellWord(args)}` : "--args JSON"]),
  ]
  const timeout = code === "TOOL_TIMEOUT"
  return {
    code: "SMOKE_RUN_FAILED",
    severity: timeout ? "warning" : "error",
    file: null,
    message: `${run.tool} (from ${installed.spec}) called with ${shown}: ${run.error?.message ?? code}${timeout ? "" : "; opencode could not send the model a result"}: try it with ${pasted.join(" ")}`,
    data: { tool: run.tool, args: run.args, error: run.error },
  }
}

function e2eSummary(result: E2EResult): E2ESummary {
  const offered = (result.tools ?? []).map((tool) => (tool as { function?: { name?: string } }).function?.name)
  return {
    opencode: result.opencode,
    exitCode: result.exitCode,
    offered,
    calls: result.calls.map((call) => ({
      tool: call.as_called.name,
      ran: call.as_run?.name ?? null,
      status: call.status,
      result: call.result,
      error: call.error,
    })),
    errors: result.errors,
  }
}

/** E2E_FAILED when the real opencode did not offer a tool the loader found, failed, or left a call unanswered. */
function e2eFindings(result: E2EResult, tools: string[], installed: InstalledPlugin): Finding[] {
  const findings: Finding[] = []
  const offered = new Set(e2eSummary(result).offered)
  const failure = (message: string, data?: Record<string, unknown>): Finding => ({
    code: "E2E_FAILED",
    severity: "error",
    file: null,
    message: `opencode ${message}`,
    ...definedFields({ data }),
  })
  for (const error of result.errors) findings.push(failure(`reported: ${error.message}`, { source: error.source }))
  if (result.exitCode !== 0)
    findings.push(failure(`ended with exit code ${result.exitCode} while running ${installed.spec}`))
  const missing = tools.filter((tool) => !offered.has(tool))
  if (missing.length > 0 && result.tools !== null)
    findings.push(
      failure(
        `did not offer ${missing.join(", ")} from ${installed.spec}: the real opencode did not load the plugin as tool-tester did`,
        { missing },
      ),
    )
  for (const call of result.calls) {
    if (call.result === null)
      findings.push(
        failure(`sent no result back for the call to ${call.as_called.name}`, { tool: call.as_called.name }),
      )
  }
  return findings
}
