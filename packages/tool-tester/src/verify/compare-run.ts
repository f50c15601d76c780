// What tool-tester predicts for one probe run, compared with what opencode did (an ObservedRun):
// the tools offered, their names and order, the custom tools' schemas as sent, and for each call
// of a custom tool or of `invalid` the tool it ran as, the text the model received, the status,
// title and metadata, the saved full output of truncated results and the errors that escaped.
// `tool-tester verify` reports the checks; the conformance tests require every one to agree.

import { createHash } from "node:crypto"
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises"
import os from "node:os"
import path from "node:path"
import { stripVTControlCharacters } from "node:util"
import { sessionFailure } from "../e2e/e2e-result.ts"
import { getToolSchemas, listTools } from "../list-tools.ts"
import { libraryNoticeOnce, openProject } from "../load-tools.ts"
import { pluginPackageFor } from "../opencode/plugin-package.ts"
import { BUILTIN_TOOL_IDS } from "../pipeline/builtins.ts"
import { MODEL_MODALITIES, type ModelModality } from "../pipeline/model-modalities.ts"
import { callTool, closeProject } from "../run-tool.ts"
import type { EngineChoice } from "../runtime/here.ts"
import { guard } from "../runtime/reaper.ts"
import type { ToolProject } from "../types.ts"
import { type Check, check, resultBehaviour } from "./behaviours.ts"
import { callText, opencodeSide, toolTesterSide } from "./call-side.ts"
import type { ObservedRun } from "./observed-run.ts"
import type { ProbeSet } from "./probe-set.ts"
import { runEnding, unfinishedTexts } from "./unfinished-call.ts"

/**
 * Calls whose text differs from opencode's on purpose, by what docs/fidelity.md#inputclient
 * documents; for them the status, title and metadata are compared, not the text. Keyed `set/run/tool`.
 */
const DOCUMENTED_DIFFERENCES: Record<string, string> = {
  "plugin-client-init/provider.list-not-awaited/init_result":
    "the server behind input.client lists one provider, pointed at a refused port, so nothing leaves the machine",
  "plugin-client-execute/execute-calls/exec_messages":
    "a noReply user message has no `summary`; and a later turn's list in opencode also holds the earlier turns",
  "plugin-client-execute/prompt-no-reply/exec_messages": "only the calling turn is reproduced, not the earlier ones",
  "plugin-client-execute/execute-calls/exec_config":
    "the server's config also has enabled_providers: only its provider pointed at a refused port",
  "plugin-client-execute/execute-calls/exec_path":
    "the server's data and state folders are temporary ones of its own, so its sessions never reach your history",
  "plugin-client-execute/execute-calls/exec_session":
    "the session tool-tester creates has neither `opencode run`'s permission rules nor a summary yet",
}

export interface CompareOptions {
  /** The engine that loads the probe's tools (default: as every command chooses, bun when found). */
  engine?: EngineChoice
  /** The bun engine's binary (an opencode or bun executable). */
  engineBinary?: string
  /** Bound of the whole replay (default 120 s): past it, one difference says so. */
  timeoutMs?: number
}

export const defaultCompareTimeoutMs = 120_000

/** The checks of one observed run of `probe`, tool-tester's side run in a throw-away copy of the probe. */
export async function compareRun(
  probe: ProbeSet,
  observed: ObservedRun,
  options: CompareOptions = {},
): Promise<Check[]> {
  const sandbox = await mkdtemp(path.join(os.tmpdir(), "tool-tester-verify-"))
  // Removed at exit too: verify's Ctrl-C exits without waiting for a replay still going.
  const guarded = guard({ paths: [sandbox] })
  const ended = new AbortController()
  const state: ReplayState = { ended: ended.signal }
  const timeoutMs = options.timeoutMs ?? defaultCompareTimeoutMs
  let timer: NodeJS.Timeout | undefined
  let cutShort = false
  const replaying = replay(probe, observed, sandbox, options, state)
  try {
    const bound = new Promise<Check[]>((resolve) => {
      timer = setTimeout(() => {
        cutShort = true
        const where = { behaviour: probe.behaviour, set: probe.set, run: observed.name, subject: "the run" }
        resolve([check(where, "finished", `tool-tester did not finish within ${timeoutMs} ms`)])
      }, timeoutMs)
    })
    return await Promise.race([replaying, bound])
  } finally {
    clearTimeout(timer)
    ended.abort()
    if (state.project !== undefined) closeProject(state.project)
    // On Windows the engine just ended can hold the folder a moment longer (EBUSY): retried, and a
    // folder that still cannot go is left to the guard, which removes it at exit: the checks stand.
    const removeSandbox = () =>
      rm(sandbox, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }).then(
        () => guarded.release(),
        () => undefined,
      )
    // A replay the bound cut short goes on to the end of the step it is in (loading the project,
    // a call, which the abort ends): it closes a project it loads then, and its sandbox goes once it
    // has ended, not while it still reads it.
    if (cutShort) void replaying.catch(() => undefined).finally(() => removeSandbox().catch(() => undefined))
    else await removeSandbox()
  }
}

// --- internal ---

// Built-ins other than `invalid` are opencode's own code: tool-tester does not run them.
const BUILTINS = new Set(BUILTIN_TOOL_IDS.filter((id) => id !== "invalid"))

/** One run's replay: the probe, the run observed, and tool-tester's project loaded for it. */
interface Replay {
  probe: ProbeSet
  run: ObservedRun
  project: ToolProject
  directory: string
  home: string
  model: { npm: string; providerID: string; modelID: string }
  /** Aborted when compareRun has returned: no call starts after it, and the one running is aborted. */
  ended: AbortSignal
  where: (behaviour: Check["behaviour"], subject: string) => Pick<Check, "behaviour" | "set" | "run" | "subject">
}

/** What compareRun shares with its replay: the project once loaded, and whether compareRun has returned. */
interface ReplayState {
  project?: ToolProject
  /** Aborted when compareRun returns: a replay still going (cut short by the bound) stops at its next step. */
  ended: AbortSignal
}

async function replay(
  probe: ProbeSet,
  run: ObservedRun,
  sandbox: string,
  options: CompareOptions,
  state: ReplayState,
): Promise<Check[]> {
  const { directory, env, home } = await probeCopy(probe, run.git, sandbox)
  if (state.ended.aborted) return []
  // The probes' tools print and let errors escape on purpose (escaped-errors): what they print
  // stays in the engine's pipes, never on verify's stderr; the checks read the calls' results.
  const project = await openProject(
    {
      directory,
      env,
      home,
      ...(options.engine === undefined ? {} : { engine: options.engine }),
      ...(options.engineBinary === undefined ? {} : { engineBinary: options.engineBinary }),
      ...(run.config ? { config: run.config } : {}),
      console: "pipe",
    },
    libraryNoticeOnce,
  )
  state.project = project
  if (state.ended.aborted) {
    // compareRun returned while the project loaded: nothing else will close it.
    closeProject(project)
    return []
  }
  const where = (behaviour: Check["behaviour"], subject: string) => ({
    behaviour,
    set: probe.set,
    run: run.name,
    subject,
  })
  const model = { npm: run.provider, providerID: "mock", modelID: run.model }
  const context: Replay = { probe, run, project, directory, home, model, ended: state.ended, where }
  const schemas = await getToolSchemas(project, { model })
  const failure = schemas.success ? undefined : schemas.error
  const early = earlyVerdict(context, failure)
  if (early !== undefined) return early
  const checks = listChecks(context, schemas.success ? schemas.value : [], failure)
  if (failure !== undefined) return checks
  return [...checks, ...(await callChecks(context))]
}

/**
 * The one check of a run opencode ended before sending a tool list: it hung in a plugin's init,
 * refused the config's default_agent, or the list broke. Undefined when opencode sent the list.
 */
function earlyVerdict(
  { probe, run, project, model, where }: Replay,
  failure: { code: string; message: string } | undefined,
): Check[] | undefined {
  const codes = project.diagnostics.map((diagnostic) => diagnostic.code)
  if (run.hung && run.calls.length === 0) {
    // opencode hung before its first request: a plugin awaited, during init, a client call opencode
    // answers only after init. tool-tester names it instead of hanging.
    const named = codes.includes("PLUGIN_INIT_HANGS")
    return [
      check(
        where("plugin hooks", "a plugin's init"),
        "hung before the first model request",
        named ? "hung before the first model request" : `loads (${codes.join(", ") || "no diagnostics"})`,
      ),
    ]
  }
  if (run.toolNames !== null) return undefined
  // The log line quotes the error: `error="Error: default agent \"explore\" is a subagent"`.
  const logged = run.errors.map((error) => error.message.replaceAll('\\"', '"'))
  const refusedAgent = logged.find((message) => message.includes('Error: default agent "'))
  if (refusedAgent !== undefined) {
    // opencode refused the config's default_agent and failed the run before any request.
    const reason = /default agent "[^"]+" [a-z ]+/.exec(refusedAgent)?.[0] ?? refusedAgent
    const problem = project.diagnostics.find((diagnostic) => diagnostic.data?.["key"] === "default_agent")
    const named = problem?.code === "CONFIG_INVALID" && problem.message.includes(reason)
    return [
      check(
        where("results", "the config's default_agent"),
        `refused: ${reason}`,
        named ? `refused: ${reason}` : `accepted (${problem?.message ?? "no diagnostic"})`,
      ),
    ]
  }
  // opencode never sent a request with tools: the tool list broke (or opencode ended first).
  const offered = listTools(project, { model }).map((tool) => tool.id)
  const broke = failure !== undefined && ["SCHEMA_UNREPRESENTABLE", "PLUGIN_LOAD_FAILED"].includes(failure.code)
  return [
    check(
      where(probe.behaviour === "schemas" ? "schemas" : "discovery", "the tool list"),
      `no tool list sent${endedWith(run)}`,
      broke ? `no tool list sent${endedWith(run)}` : `offers ${offered.join(", ")}`,
    ),
  ]
}

/** The tool list opencode sent beside tool-tester's: the names, their order, each schema. */
function listChecks(
  { probe, run, project, model, where }: Replay,
  schemas: Array<{ name: string; description: string; parameters: unknown }>,
  failure: { code: string; message: string } | undefined,
): Check[] {
  const toolNames = run.toolNames ?? []
  const offered = listTools(project, { model }).map((tool) => tool.id)
  const checks: Check[] = []
  const namesBehaviour = probe.behaviour === "naming" ? "naming" : "discovery"
  const sameSet = [...offered].sort().join("\n") === [...toolNames].sort().join("\n")
  checks.push(
    check(where(namesBehaviour, "tool names"), [...toolNames].sort().join("\n"), [...offered].sort().join("\n")),
  )
  if (sameSet) checks.push(check(where("order", "tool order"), toolNames.join("\n"), offered.join("\n")))
  if (failure !== undefined) {
    checks.push(check(where("schemas", "the tool list"), "sent", `breaks: ${failure.code}: ${failure.message}`))
    return checks
  }
  // Google's function declarations hold the AI SDK's rewrite of each schema into Google's subset,
  // not the JSON schema opencode hands it (which is what tool-tester gives): not compared.
  if ((run.tools ?? []).some((tool) => "functionDeclarations" in tool)) return checks
  const sent = new Map((run.tools ?? []).map(sentTool).map((tool) => [String(tool.name), tool]))
  for (const { name, description, parameters } of schemas) {
    const opencodeTool = sent.get(name)
    checks.push(
      check(
        where("schemas", `schema of ${name}`),
        opencodeTool === undefined ? "not sent" : JSON.stringify(opencodeTool, null, 1),
        JSON.stringify({ name, description, parameters }, null, 1),
      ),
    )
  }
  return checks
}

/** The run's calls replayed through tool-tester: where each ran, its result, saved outputs, escapes. */
async function callChecks(context: Replay): Promise<Check[]> {
  const { run, where } = context
  const checks: Check[] = []
  const savedFiles: Array<{ bytes: number; sha256: string }> = []
  const escaped: string[] = []
  // Tools see the project as their working directory, as in opencode: one run's calls at a time
  // may have it (the rest of a run, the slow part, goes on concurrently).
  const release = await workingDirectoryTurn()
  const workingDirectory = process.cwd()
  process.chdir(context.directory)
  // What the probe declares of the run: opencode may hang in it, or a call ends opencode's process.
  const declared = context.probe.runs.find((probeRun) => probeRun.name === run.name)
  const mayHang = declared?.mayHang === true
  // The node engine runs tools in this process: a call that ends its process would end this one.
  const cannotReplayExit = declared?.endsOpencode === true && context.project.engine.name === "node"
  const replayed: Replayed[] = []
  try {
    for (const [index, call] of run.calls.entries()) {
      if (context.ended.aborted) break
      const unfinished = call.ran === null || (run.hung === true && call.result === "")
      if (BUILTINS.has(unfinished ? call.called.name.toLowerCase() : call.ran!.name)) continue
      // A call opencode never finished because it hung there, in a run that may hang on purpose
      // (session.prompt of the running call's own session, without noReply): tool-tester's server
      // has no model, so the call ends at once with an error instead (docs/fidelity.md#inputclient).
      if (unfinished && run.hung === true && mayHang) continue
      // A call that ended opencode on purpose, with no error of opencode's own (a tool's
      // process.exit): compared under the bun engine, where it ends the engine's process only.
      if (unfinished && run.hung !== true && cannotReplayExit && sessionFailure(run.errors) === undefined) continue
      const result = await replayCall(context, call, index)
      replayed.push({ index, call, unfinished, result })
      for (const error of result.escapedErrors ?? []) escaped.push(error.message.replace(/^\w+: /, ""))
      if (result.outputPath) {
        const saved = await readFile(result.outputPath)
        savedFiles.push({ bytes: saved.length, sha256: createHash("sha256").update(saved).digest("hex") })
      }
    }
  } finally {
    process.chdir(workingDirectory)
    release()
  }
  // The steps (the model's parallel batches) in which tool-tester predicts a call ends opencode's run.
  const endingSteps = new Set(
    replayed.filter(({ result }) => runEnding(result) !== undefined).map(({ call }) => call.turn),
  )
  for (const entry of replayed) {
    // Any call opencode never finished (it died or hung in it) is compared too: it agrees only
    // when tool-tester's call ends the same way, or is cut off by a call of its step that does.
    checks.push(
      ...(entry.unfinished
        ? [unfinishedCallCheck(context, entry, endingSteps.has(entry.call.turn))]
        : callResultChecks(context, entry.call, entry.index, entry.result)),
    )
  }
  if (run.toolOutputFiles.length > 0 || savedFiles.length > 0)
    checks.push(
      check(where("truncation", "saved full outputs"), JSON.stringify(run.toolOutputFiles), JSON.stringify(savedFiles)),
    )
  // An error that escaped a tool: opencode printed it on stderr (Bun's `error: <message>` line) and
  // went on; tool-tester lists it on the call it escaped from, or on the call running when it
  // escaped (docs/opencode-contract.md#escaped-errors).
  const printed = run.errors
    .filter((error) => error.source === "stderr" && error.message.startsWith("error: "))
    .map((error) => error.message.slice("error: ".length))
  if (printed.length > 0 || escaped.length > 0)
    checks.push(check(where("results", "escaped errors"), printed.sort().join("\n"), escaped.sort().join("\n")))
  return checks
}

type ObservedCallOf = ObservedRun["calls"][number]

/** One call of the run, made through tool-tester as opencode made it. */
function replayCall({ run, project, model, home, ended }: Replay, call: ObservedCallOf, index: number) {
  return callTool(
    project,
    { name: call.called.name, rawArguments: call.called.arguments },
    // One session per run, as one `opencode run` is: the session hooks count on it.
    {
      model,
      modelInput: modelInputOf(run),
      dataDirectory: path.join(home, "data"),
      callID: `call_${index + 1}`,
      sessionID: `ses_conformance_${run.name}`,
      signal: ended,
      ...(run.agent === undefined ? {} : { agent: run.agent }),
    },
  )
}

/** A call of the run, replayed through tool-tester. */
interface Replayed {
  index: number
  call: ObservedCallOf
  /** opencode never finished it: it ended or hung before the model got the result. */
  unfinished: boolean
  result: Awaited<ReturnType<typeof callTool>>
}

/** A call opencode never finished, beside tool-tester's (unfinished-call.ts). */
function unfinishedCallCheck(
  { probe, run, directory, where }: Replay,
  { call, index, result }: Replayed,
  stepEnds: boolean,
): Check {
  const subject = `call ${index + 1} (${call.called.name} ${call.called.arguments.slice(0, 60)})`
  const texts = unfinishedTexts(run, call, { result, side: toolTesterSide(result, directory) }, stepEnds)
  return check(where(resultBehaviour(probe.behaviour), subject), texts.opencode, texts.toolTester)
}

/** Where a call ran and what it returned, opencode's side beside tool-tester's. */
function callResultChecks(
  { probe, run, directory, where }: Replay,
  call: ObservedCallOf,
  index: number,
  result: Awaited<ReturnType<typeof callTool>>,
): Check[] {
  const ran = call.ran!
  const subject = `call ${index + 1} (${call.called.name} ${call.called.arguments.slice(0, 60)})`
  // A result with attachments is read back in the provider's own form: the check of the next
  // request compares what the model got, the result's text among it.
  const documented = DOCUMENTED_DIFFERENCES[`${probe.set}/${run.name}/${ran.name}`] !== undefined
  const textApart = documented || call.carried !== undefined
  const checks = [
    check(where("rerouting", `${subject}: ran as`), ran.name, result.id),
    check(
      where(resultBehaviour(probe.behaviour), subject),
      callText(call, opencodeSide(call), textApart),
      callText(call, toolTesterSide(result, directory), textApart),
    ),
  ]
  if (call.carried !== undefined)
    checks.push(
      check(
        where("attachments", `${subject}: the next request`),
        call.carried === null ? "no request followed" : JSON.stringify(call.carried, null, 1),
        carriedPrediction(result, run.provider),
      ),
    )
  return checks
}

/** What tool-tester says the next request carries of a result, in the form of a recorded one. */
function carriedPrediction(result: Awaited<ReturnType<typeof callTool>>, provider: string): string {
  if (result.modelMessages === undefined) return "the result has no attachments"
  if (result.modelRequestError !== undefined) return `no request followed: ${result.modelRequestError}`
  if (result.modelMessages === null) return `not modelled for ${provider}`
  return JSON.stringify({ messages: result.modelMessages, documents: result.modelDocuments ?? [] }, null, 1)
}

/** The model's input besides text, as the run's config gives the mock provider's model. */
function modelInputOf(run: ObservedRun): ModelModality[] {
  const models = (run.config?.["provider"] as { mock?: { models?: Record<string, unknown> } } | undefined)?.mock?.models
  const input = (models?.[run.model] as { modalities?: { input?: unknown } } | undefined)?.modalities?.input
  return MODEL_MODALITIES.filter((modality) => Array.isArray(input) && input.includes(modality))
}

let workingDirectoryQueue: Promise<void> = Promise.resolve()

/** Waits for the working directory to be free; the function returned frees it. */
async function workingDirectoryTurn(): Promise<() => void> {
  let release!: () => void
  const previous = workingDirectoryQueue
  workingDirectoryQueue = new Promise((resolve) => (release = resolve))
  await previous
  return release
}

/** A copy of the probe outside any git repository (worktree "/"), or its own repository, as the observation ran it. */
async function probeCopy(
  probe: ProbeSet,
  git: boolean,
  sandbox: string,
): Promise<{ directory: string; env: Record<string, string>; home: string }> {
  const directory = path.join(sandbox, "project")
  await cp(probe.directory, directory, { recursive: true, filter: (source) => path.basename(source) !== "probe.json" })
  // opencode finds @opencode-ai/plugin in .opencode/node_modules; here it comes from a folder above.
  const scope = path.join(sandbox, "node_modules", "@opencode-ai")
  await mkdir(scope, { recursive: true })
  await symlink(await pluginPackageFor(probe.directory, sandbox), path.join(scope, "plugin"), "junction")
  if (git) await mkdir(path.join(directory, ".git"))
  // The e2e runner's global layer: allow everything, overridable by the project and the run's config.
  const home = path.join(sandbox, "home")
  await mkdir(path.join(home, ".config", "opencode"), { recursive: true })
  await writeFile(path.join(home, ".config", "opencode", "opencode.json"), `{"permission":{"*":"allow"}}`)
  return { directory, env: { XDG_CONFIG_HOME: path.join(home, ".config") }, home }
}

/**
 * A sent tool's name, description and JSON schema: chat completions' `function`, the responses
 * API's tool, Anthropic's `input_schema`, Bedrock's `toolSpec` with `inputSchema.json`.
 */
function sentTool(tool: Record<string, unknown>): { name: unknown; description: unknown; parameters: unknown } {
  const inner = (tool["function"] ?? tool["toolSpec"] ?? tool) as Record<string, unknown>
  const bedrockSchema = (inner["inputSchema"] as { json?: unknown } | undefined)?.json
  const parameters = inner["parameters"] ?? inner["input_schema"] ?? bedrockSchema
  return { name: inner["name"], description: inner["description"], parameters }
}

function endedWith(run: ObservedRun): string {
  if (run.hung) return " (opencode hung)"
  if (run.exitCode === 0 || run.exitCode === null) return ""
  // opencode colours its error lines: the colours are not the message.
  const last = run.errors.at(-1)
  return ` (opencode exited ${run.exitCode}${last === undefined ? "" : `: ${stripVTControlCharacters(last.message).slice(0, 200)}`})`
}
