import path from "node:path"
import { projectClientOf } from "../client/project-client.ts"
import { chooseAgent } from "../config/agent.ts"
import { imageLimits } from "../config/attachment-image.ts"
import type { PermissionRule } from "../config/permission.ts"
import { hasTaskTool } from "../config/permission.ts"
import { noteFailedImport } from "../discovery/import-module.ts"
import { ToolTesterError } from "../errors.ts"
import type { HookError, LoadedTool, RunOptions, RunResult, ToolProject } from "../types.ts"
import { ascendingId } from "./ascending-id.ts"
import { bedrockToolUseId } from "./bedrock-messages.ts"
import type { ModelSelection } from "./builtins.ts"
import { DEFAULT_MODEL } from "./builtins.ts"
import { type CallStart, toolRuns } from "./builtins-between-calls.ts"
import { bunValueText } from "./bun-value-text.ts"
import { CallRecord } from "./call-record.ts"
import { defaultDataDirectory } from "./data-directory.ts"
import { givenCall } from "./given-arguments.ts"
import { runInvalidTool } from "./invalid-tool.ts"
import { liveDefinition } from "./live.ts"
import { modelDocuments, modelMessages, modelRequestError } from "./model-messages.ts"
import { normalizeResult, readThrown, recordedTitle } from "./normalize-result.ts"
import { opencodeAbortReason } from "./opencode-abort.ts"
import { partAttachments, stampAttachments } from "./part-attachments.ts"
import { partEvents } from "./part-events.ts"
import { agentRules } from "./permissions.ts"
import { runAfterHooks, runBeforeHooks } from "./plugin-hooks.ts"
import { marksForCaching } from "./prompt-caching.ts"
import type { RawToolCall } from "./repair-call.ts"
import { resolveCall } from "./repair-call.ts"
import { runSessionHooks } from "./session-hooks.ts"
import { createToolContext } from "./tool-context.ts"
import type { ToolEntry } from "./tool-list.ts"
import { preparedTools } from "./tool-list.ts"
import { truncateOutput } from "./truncate.ts"
import { userMessage } from "./user-message.ts"
import { validateArgs } from "./validate-args.ts"
import { timeoutEvents, withTimeout } from "./with-timeout.ts"
import { toolChoice } from "../_tool-choice.ts"

/**
 * One call as opencode runs it (docs/opencode-contract.md#registry-wrapper): name repair or
 * rerouting to `invalid`, the session's hooks, the tool part's events around the plugins' before
 * hooks, opt-in validation, execute with opencode's context, result normalisation, truncation with
 * the full text saved, then the after hooks. Failures of the tool are reported in the result (the
 * model reads `output`); only asking for a built-in throws. `start`: the built-ins as the call found
 * them (builtins-between-calls.ts), looked at before anything of the pipeline uses them.
 */
export async function executeCall(
  project: ToolProject,
  call: RawToolCall,
  given: { parsed: unknown } | undefined,
  options: RunOptions,
  start: CallStart,
): Promise<RunResult> {
  const setting = callSetting(project, options)
  // Given arguments stand for the JSON text a model sends, which opencode may refuse (given-arguments.ts).
  const asked = given ? givenCall(call.name, given.parsed) : call
  const resolved = resolveCall(asked, setting.prepared)
  const record = new CallRecord(asked, resolved, given)
  if (start.lasting !== undefined) {
    const { changed, by } = start.lasting
    return record.fail(
      "TOOL_TAMPERED",
      `the engine's built-ins were changed after a call returned, by ${by}, and could not be put back (${changed}): this call did not run`,
      `${by} changed the engine's built-ins after its call returned (${changed}), and they could not be put back: the call did not run`,
    )
  }
  if (resolved.kind === "failed") {
    return record.fail(
      "ARGS_INVALID",
      resolved.message,
      `${call.name} was repaired to ${resolved.id}, but its arguments are not JSON: opencode fails the call without running the tool`,
    )
  }
  const entry = setting.prepared.find((candidate) => candidate.id === record.result.id)
  if (!entry || entry.source === "builtin") return runBuiltin(record, setting.prepared)
  const session = callSession(project, options, setting.model)
  try {
    await runSessionHooks(project, session)
  } catch (error) {
    const { text, details } = readThrown(error)
    return record.fail(
      "TOOL_THREW",
      text,
      `a plugin's chat.message, chat.system.transform, chat.params or chat.headers hook threw: ${text}`,
      details,
    )
  }
  const hookErrors: HookError[] = []
  const events = partEvents(project, { ...session, tool: entry.tool.id }, hookErrors)
  await events.pending()
  await events.running(record.result.args)
  const finished = await runTool(project, entry.tool, record, { setting, session, options, restore: start.restore })
  await events.finished(finished)
  if (hookErrors.length > 0) finished.hookErrors = hookErrors
  return finished
}

// --- internal ---

/** What the call is made for: the model, the permission rules, and the tool list they give. */
type CallSetting = {
  directory: string
  worktree: string
  model: ModelSelection
  dataDirectory: string
  rules: PermissionRule[]
  prepared: ToolEntry[]
}

function callSetting(project: ToolProject, options: RunOptions): CallSetting {
  const model: ModelSelection = { ...DEFAULT_MODEL, ...options.model }
  const dataDirectory = options.dataDirectory ?? defaultDataDirectory()
  const rules = agentRules({ config: project.config.permission, overrides: options.permissions, dataDirectory })
  const prepared = preparedTools(project, model, rules)
  return { directory: project.directory, worktree: project.worktree, model, dataDirectory, rules, prepared }
}

/** The session, message and call the tool part belongs to, and the history the tool sees. */
type CallSession = {
  sessionID: string
  messageID: string
  callID: string
  agent: string
  model: ModelSelection
  messages: unknown[]
}

function callSession(project: ToolProject, options: RunOptions, model: ModelSelection): CallSession {
  const sessionID = options.sessionID ?? ascendingId("ses")
  // As opencode chooses it (docs/opencode-contract.md#agent): the asked agent when it is a primary
  // one, else the config's default agent; a default agent opencode refuses fails every run.
  const chosen = chooseAgent(project.config, options.agent)
  if (!chosen.success) throw new ToolTesterError("CONFIG_INVALID", chosen.message, { data: { key: "default_agent" } })
  const agent = chosen.agent
  const callID = options.callID ?? `call_${ascendingId("prt").slice(4, 16)}`
  return {
    sessionID,
    // @ai-sdk/amazon-bedrock cuts a Mistral model's call ids as it reads them: the tool gets that one.
    callID: model.npm === "@ai-sdk/amazon-bedrock" ? bedrockToolUseId(callID, model.modelID) : callID,
    messageID: options.messageID ?? ascendingId("msg"),
    agent,
    model,
    messages: options.messages ?? [userMessage(sessionID, options.prompt ?? "tool-tester", model, agent)],
  }
}

/** A call that reached no custom tool: the `invalid` tool runs; any other built-in is not ours to run. */
function runBuiltin(record: CallRecord, prepared: ToolEntry[]): RunResult {
  const { result } = record
  if (result.id !== "invalid") {
    const custom = prepared.filter((entry) => entry.source !== "builtin").map((entry) => entry.id)
    throw new ToolTesterError(
      "TOOL_NOT_FOUND",
      `${result.id} is a built-in opencode tool; tool-tester runs custom and plugin tools only: ${toolChoice("call", custom)}`,
      { data: { tool: result.id } },
    )
  }
  const invalid = runInvalidTool(result.args)
  if (!invalid.success) return record.fail("ARGS_INVALID", invalid.output)
  result.title = invalid.title
  result.output = invalid.output
  result.metadata = { truncated: false }
  return record.finish()
}

/** `restore`: puts back what the call changed of the built-ins, and says what (builtins-between-calls.ts). */
type RunContext = { setting: CallSetting; session: CallSession; options: RunOptions; restore: () => string[] }

/** The custom tool's own part of the call: before hooks, validation, execute, its result, after hooks. */
async function runTool(
  project: ToolProject,
  tool: LoadedTool,
  record: CallRecord,
  context: RunContext,
): Promise<RunResult> {
  const { result } = record
  const { sessionID, callID } = context.session
  // Its file changed the built-ins while it was loaded (load-tools.ts put them back), or code it
  // left running after a call did (builtins-between-calls.ts): the call reports that, whatever it
  // would do now.
  const tampered = project.diagnostics.find((found) => found.code === "TOOL_TAMPERED" && found.file === tool.file)
  if (tampered) {
    const changed = (tampered.data?.["changed"] as string[] | undefined)?.join(", ") ?? ""
    const when =
      tampered.data?.["when"] === "after-call"
        ? "code the tool left running after an earlier call returned changed the engine's built-ins"
        : "the tool's file changed the engine's built-ins while it was loaded"
    return record.fail("TOOL_TAMPERED", `${when} (${changed})`, tampered.message)
  }
  toolRuns(project, tool)
  try {
    await runBeforeHooks(project, tool, sessionID, callID, result)
  } catch (error) {
    const { text, details } = readThrown(error)
    return record.fail("TOOL_THREW", text, `a tool.execute.before hook threw: ${text}`, details)
  }
  if (context.options.validate) {
    const validated = validateArgs(tool.id, liveDefinition(tool), result.args)
    if (!validated.success) return record.fail("ARGS_INVALID", validated.message)
    result.args = validated.value
  }
  const executed = await execute(project, tool, record, context)
  if (!executed.success) return executed.failed
  const recorded = await recordOutput(project, tool, record, executed.value, context)
  if (recorded) return recorded
  // The tool returned attachments: what the model gets of them is reported, whatever the hooks do.
  const returned = result.attachments !== undefined && result.attachments.length > 0
  if (result.attachments !== undefined) result.attachments = stampAttachments(result.attachments, context.session)
  try {
    await runAfterHooks(project, tool, sessionID, callID, result)
  } catch (error) {
    const { text, details } = readThrown(error)
    return record.fail("TOOL_THREW", text, `a tool.execute.after hook threw: ${text}`, details)
  }
  keepAttachments(project, result, context, returned)
  return record.finish()
}

/**
 * What opencode keeps of the attachments once the tool has answered (file parts, readable images),
 * and the messages that carry them to the model (docs/opencode-contract.md#attachments).
 */
function keepAttachments(
  project: ToolProject,
  result: RunResult,
  { session, options }: RunContext,
  returned: boolean,
): void {
  const given = result.attachments ?? []
  if (!returned && given.length === 0) return
  const kept = partAttachments(result.output, given, imageLimits(project.config), session)
  result.output = kept.output
  result.attachments = kept.attachments
  const input = {
    callID: session.callID,
    toolName: result.id,
    output: kept.output,
    attachments: kept.attachments ?? [],
    model: session.model,
    modelInput: options.modelInput ?? [],
    cacheMarks: marksForCaching(session.model, project.config),
  }
  defineKey(result, "modelMessages", modelMessages(input))
  const documents = modelDocuments(input)
  if (documents !== undefined) defineKey(result, "modelDocuments", documents)
  const refused = modelRequestError(input)
  if (refused !== undefined) defineKey(result, "modelRequestError", refused)
}

/** Defined, not assigned: not an own key yet, so an assignment would reach a setter left on Object.prototype. */
function defineKey(
  result: RunResult,
  key: "modelMessages" | "modelDocuments" | "modelRequestError",
  value: unknown,
): void {
  Object.defineProperty(result, key, { value, writable: true, enumerable: true, configurable: true })
}

/** Calls execute with opencode's context, within the timeout and the caller's abort signal. */
async function execute(
  project: ToolProject,
  tool: LoadedTool,
  record: CallRecord,
  { setting, session, options, restore }: RunContext,
): Promise<{ success: true; value: NormalizedRead } | { success: false; failed: RunResult }> {
  const controller = new AbortController()
  // The tool sees opencode's reason for a stop, whatever the caller's (opencode-abort.ts).
  const abortFromCaller = () => controller.abort(opencodeAbortReason())
  // A signal aborted before the call still reaches the tool's context.abort.
  if (options.signal?.aborted) abortFromCaller()
  else options.signal?.addEventListener("abort", abortFromCaller, { once: true })
  const context = createToolContext({
    ...session,
    directory: setting.directory,
    worktree: setting.worktree,
    abort: controller.signal,
    rules: setting.rules,
    askPolicy: options.permissions?.ask ?? "allow",
    asks: record.result.asks,
    metadataCalls: record.result.metadataCalls,
  })
  const client = projectClientOf(project)
  // While execute runs, the plugin client can ask the server about this call's session.
  const forget = client?.sessions.register(callSessionRecord(tool, record, { setting, session, options, restore }))
  let settled: { value: unknown } | { error: unknown }
  const running = Promise.resolve().then(async () => {
    await client?.initCallsSettled()
    return callExecute(tool, record.result.args, context)
  })
  try {
    settled = { value: await withTimeout(running, options.timeoutMs, controller) }
  } catch (error) {
    settled = { error }
  } finally {
    forget?.()
  }
  // Tools share the engine's built-ins with opencode: put back what this one changed before the
  // pipeline does anything else with them (a replaced Promise, a throwing Object.prototype.then
  // getter would break the report), and fail the call, since in opencode it would break opencode.
  const tampered = restore()
  options.signal?.removeEventListener("abort", abortFromCaller)
  if (tampered.length > 0) return { success: false, failed: tamperedCall(tool, record, tampered) }
  // Told apart by identity: `instanceof` on what a tool threw would run its Proxy's traps.
  const uncallable = "error" in settled ? ownUncallable(settled.error) : undefined
  if (uncallable !== undefined) {
    const { modelText, message } = uncallable
    return { success: false, failed: record.fail("TOOL_BAD_RESULT", modelText, `${tool.file}: ${tool.id}: ${message}`) }
  }
  const timedOut =
    "error" in settled && ToolTesterError.isInstance(settled.error) && settled.error.code === "TOOL_TIMEOUT"
  if (timedOut) {
    const waiting = client?.pending() ?? []
    const on = waiting.length === 0 ? "" : ` (it was waiting for ${waiting.join(", ")})`
    const message = (settled as { error: ToolTesterError }).error.message
    timeoutEvents.onTimedOut?.(options.signal, running)
    return { success: false, failed: record.fail("TOOL_TIMEOUT", `${message}${on}`) }
  }
  // Reading what the tool returned or threw runs its code again (getters, Proxy traps, a message
  // getter): all of it is read now, into plain values, and the built-ins are checked once more
  // before anything is recorded, so nothing the tool does while being read can change the verdict.
  const read =
    "value" in settled ? { normalized: normalizeResult(settled.value) } : { thrown: readThrown(settled.error) }
  // A module execute imported that failed to compile is watched as the load's are (dev, run --watch).
  if ("error" in settled) noteFailedImport(settled.error)
  const tamperedReading = restore()
  if (tamperedReading.length > 0) return { success: false, failed: tamperedCall(tool, record, tamperedReading, true) }
  if ("normalized" in read) return { success: true, value: read.normalized }
  const { text, details, endsRun } = read.thrown
  if (endsRun !== undefined) {
    return {
      success: false,
      failed: record.fail(
        "TOOL_BAD_RESULT",
        `(no answer: opencode's run ended with "${endsRun}")`,
        `${tool.file}: ${tool.id} threw a value opencode cannot turn into text (${text}): its whole run ends with "${endsRun}" and the model gets no answer; throw an Error with a string message`,
        details,
      ),
    }
  }
  return { success: false, failed: record.fail("TOOL_THREW", text, `${tool.file}: ${tool.id} threw: ${text}`, details) }
}

type NormalizedRead = ReturnType<typeof normalizeResult>

/** TOOL_TAMPERED: the tool changed the built-ins while it ran (or while what it returned or threw was read). */
function tamperedCall(tool: LoadedTool, record: CallRecord, changed: string[], whileRead = false): RunResult {
  const when = whileRead ? " while what it returned or threw was read" : ""
  return record.fail(
    "TOOL_TAMPERED",
    `the tool changed the engine's built-ins${when} (${changed.join(", ")})`,
    `${tool.file}: ${tool.id} changed the engine's built-ins${when} (${changed.join(", ")}); tools run in opencode's own process, so this breaks opencode itself: use functions of your own instead`,
  )
}

/** The call's session as the plugin client's server mirrors it (client/call-sessions.ts). */
function callSessionRecord(tool: LoadedTool, record: CallRecord, { setting, session, options }: RunContext) {
  return {
    sessionID: session.sessionID,
    messageID: session.messageID,
    callID: session.callID,
    tool: tool.id,
    agent: session.agent,
    model: { providerID: session.model.providerID, modelID: session.model.modelID },
    prompt: options.prompt ?? "tool-tester",
    directory: setting.directory,
    worktree: setting.worktree,
    // What session.messages shows for the call's own part while it runs: still `pending`, with the
    // arguments and their text (docs/opencode-contract.md#server, the plugin-client-execute golden).
    state: () => ({ status: "pending", input: record.result.args, raw: JSON.stringify(record.result.args ?? {}) }),
  }
}

/** What execute returned, normalised as opencode does, truncated with the full text saved; a failure when opencode could not send it. */
async function recordOutput(
  project: ToolProject,
  tool: LoadedTool,
  record: CallRecord,
  normalized: NormalizedRead,
  { setting, session, options }: RunContext,
): Promise<RunResult | undefined> {
  const { result } = record
  if (!normalized.success)
    return record.fail("TOOL_BAD_RESULT", normalized.modelText, `${tool.file}: ${tool.id}: ${normalized.message}`)
  const limits = project.config.tool_output ?? {}
  const truncation = await truncateOutput(normalized.value.output, {
    maxLines: options.maxLines ?? limits.max_lines ?? 2000,
    maxBytes: options.maxBytes ?? limits.max_bytes ?? 51200,
    hasTaskTool: hasTaskTool(setting.rules),
    outputDir: path.join(setting.dataDirectory, "tool-output"),
  })
  result.title = recordedTitle(normalized.value.title, tool.id)
  result.output = truncation.content
  result.truncated = truncation.truncated
  result.metadata = { ...normalized.value.metadata, truncated: truncation.truncated }
  if (truncation.truncated) {
    result.outputPath = truncation.outputPath
    result.metadata["outputPath"] = truncation.outputPath
  }
  result.attachments = normalized.value.attachments?.map((attachment) => ({
    ...(attachment as object),
    id: ascendingId("prt"),
    sessionID: session.sessionID,
    messageID: session.messageID,
  }))
  return undefined
}

/**
 * What opencode's own code fails with before it has a result: an `execute` that is not a function,
 * or one that returns something other than a promise (opencode calls `.then` on what it returns).
 * The model reads `modelText`, Bun's TypeError from opencode's minified code (observed on 1.18.34).
 */
class UncallableExecute extends Error {
  constructor(
    readonly modelText: string,
    message: string,
  ) {
    super(message)
    thrownHere.add(this)
  }
}

/** The UncallableExecute errors callExecute threw, by identity. */
const thrownHere = new WeakSet<object>()

/** `thrown` when callExecute threw it, without running any of the tool's code (typeof and a WeakSet do not reach a Proxy's traps). */
function ownUncallable(thrown: unknown): UncallableExecute | undefined {
  if ((typeof thrown !== "object" && typeof thrown !== "function") || thrown === null) return undefined
  return thrownHere.has(thrown) ? (thrown as UncallableExecute) : undefined
}

function callExecute(tool: LoadedTool, args: unknown, context: Record<string, unknown>): unknown {
  const definition = liveDefinition(tool)
  const execute = definition.execute
  if (typeof execute !== "function") {
    throw new UncallableExecute(
      `ho.execute is not a function. (In 'ho.execute(Bo,vt)', 'ho.execute' is ${bunValueText(execute)})`,
      `execute is ${execute === null ? "null" : typeof execute}, not a function`,
    )
  }
  const returned: unknown = execute.call(definition, args, context)
  // opencode chains `.then` on the value itself: a thenable works, anything else fails the call.
  if (returned === undefined || returned === null)
    throw new UncallableExecute(
      `${returned} is not an object (evaluating 'w0(()=>X(Q)).then')`,
      `execute returned ${returned} instead of a promise; opencode needs a promise: make execute async`,
    )
  const then = (returned as { then?: unknown }).then
  if (typeof then !== "function")
    throw new UncallableExecute(
      `w0(()=>X(Q)).then is not a function. (In 'w0(()=>X(Q)).then((J)=>Y(I(J)),(J)=>Y(PX(J)))', 'w0(()=>X(Q)).then' is ${bunValueText(then)})`,
      "execute returned a value instead of a promise; opencode needs a promise: make execute async",
    )
  return returned
}
