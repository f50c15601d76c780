import os from "node:os"
import path from "node:path"
import type { ToolTesterErrorCode } from "./errors.ts"
import { ToolTesterError } from "./errors.ts"
import type { LoadedTool, ToolProject } from "./load-tools.ts"
import { ascendingId } from "./pipeline/ascending-id.ts"
import type { ModelSelection } from "./pipeline/builtins.ts"
import { DEFAULT_MODEL } from "./pipeline/builtins.ts"
import { runInvalidTool } from "./pipeline/invalid-tool.ts"
import { normalizeResult, thrownText } from "./pipeline/normalize-result.ts"
import type { PermissionOverrides } from "./pipeline/permissions.ts"
import { agentRules } from "./pipeline/permissions.ts"
import type { RawToolCall } from "./pipeline/repair-call.ts"
import { resolveCall } from "./pipeline/repair-call.ts"
import type { AskRecord, MetadataRecord } from "./pipeline/tool-context.ts"
import { createToolContext } from "./pipeline/tool-context.ts"
import { preparedTools } from "./pipeline/tool-list.ts"
import { truncateOutput } from "./pipeline/truncate.ts"
import { hasTaskTool } from "./config/permission.ts"
import { validateArgs } from "./pipeline/validate-args.ts"

export type RunOptions = {
  /** The provider npm package, provider id and model id: they change the tool list and `ctx.extra.model`. */
  model?: Partial<ModelSelection>
  /** Validate arguments with the tool's zod schema first, like opencode's built-in wrapper. Not what opencode 1.18 does for custom tools. */
  validate?: boolean
  /** Permission rules added after the config's: `deny: ["task"]` switches the truncation hint. */
  permissions?: PermissionOverrides
  /** Override the config's `tool_output.max_lines` / `max_bytes`. */
  maxLines?: number
  maxBytes?: number
  /** opencode's data folder; truncated outputs go to `<dataDirectory>/tool-output/`. Default: a folder under the OS temp dir, never your real opencode data. */
  dataDirectory?: string
  /** Stop waiting after this many milliseconds: the tool's abort signal fires and the run reports TOOL_TIMEOUT. */
  timeoutMs?: number
  agent?: string
  sessionID?: string
  messageID?: string
  callID?: string
  /** The session history passed as `ctx.messages`. Default: the user message that asked for the call. */
  messages?: unknown[]
  /** The text of that default user message. Default: "tool-tester". */
  prompt?: string
  /** Aborts the tool (its `ctx.abort` fires). */
  signal?: AbortSignal
}

/** What happened to one call, with the exact text the model receives in `output`. */
export type RunResult = {
  /** The name as called. */
  name: string
  /** The tool that ran: the repaired name, or `invalid` when the call was rerouted. */
  id: string
  /** What opencode records on the tool part. */
  status: "completed" | "error"
  /** Exactly what the model reads. */
  output: string
  title: string
  metadata: Record<string, unknown>
  attachments: unknown[] | undefined
  truncated: boolean
  outputPath: string | undefined
  /** The arguments the tool received (after `tool.execute.before` hooks, or parsed when validating). */
  args: unknown
  /** True when the name was lowercased to find the tool. */
  repaired: boolean
  /** True when the call went to `invalid` (unknown name or unparsable arguments). */
  rerouted: boolean
  asks: AskRecord[]
  metadataCalls: MetadataRecord[]
  durationMs: number
  /** Why the call failed, when it did (the model still reads `output`). */
  error?: { code: ToolTesterErrorCode; message: string }
}

/** Runs a tool by name with arguments already parsed, as opencode runs a model's call. */
export function runTool(
  project: ToolProject,
  name: string,
  args: unknown,
  options: RunOptions = {},
): Promise<RunResult> {
  return execute(project, { name, rawArguments: "" }, { parsed: args }, options)
}

/**
 * Runs a model's raw call (name + argument text) through opencode's repair first: wrong case fixed,
 * unknown names and unparsable JSON rerouted to `invalid`.
 */
export function callTool(project: ToolProject, call: RawToolCall, options: RunOptions = {}): Promise<RunResult> {
  return execute(project, call, undefined, options)
}

/** Where tool-tester saves truncated outputs unless told otherwise: never your real opencode data. */
export function defaultDataDirectory(): string {
  return path.join(os.tmpdir(), "opencode-tool-tester", "data")
}

/** opencode's own data folder (`$XDG_DATA_HOME/opencode`, else `~/.local/share/opencode`), to pass as `dataDirectory` on purpose. */
export function opencodeDataDirectory(
  env: Record<string, string | undefined> = process.env,
  home = os.homedir(),
): string {
  return path.join(env["XDG_DATA_HOME"] || path.join(home, ".local", "share"), "opencode")
}

// --- internal ---

async function execute(
  project: ToolProject,
  call: RawToolCall,
  given: { parsed: unknown } | undefined,
  options: RunOptions,
): Promise<RunResult> {
  const started = performance.now()
  const model: ModelSelection = { ...DEFAULT_MODEL, ...options.model }
  const dataDirectory = options.dataDirectory ?? defaultDataDirectory()
  const rules = agentRules({ config: project.config.permission, overrides: options.permissions, dataDirectory })
  const prepared = preparedTools(project, model, rules)
  const resolved = resolveCall(given ? { name: call.name, rawArguments: "{}" } : call, prepared)
  const result: RunResult = {
    name: call.name,
    id: resolved.kind === "run" ? resolved.id : "invalid",
    status: "completed",
    output: "",
    title: "",
    metadata: {},
    attachments: undefined,
    truncated: false,
    outputPath: undefined,
    args: resolved.kind === "run" ? (given ? given.parsed : resolved.args) : resolved.args,
    repaired: resolved.kind === "run" && resolved.repaired,
    rerouted: resolved.kind === "invalid",
    asks: [],
    metadataCalls: [],
    durationMs: 0,
  }
  const finish = () => {
    result.durationMs = Math.round((performance.now() - started) * 100) / 100
    return result
  }
  const fail = (code: ToolTesterErrorCode, output: string, message = output) => {
    result.status = "error"
    result.output = output
    result.error = { code, message }
    return finish()
  }

  const entry = prepared.find((candidate) => candidate.id === result.id)
  if (!entry || entry.source === "builtin") {
    if (result.id === "invalid") {
      const invalid = runInvalidTool(result.args)
      if (!invalid.success) return fail("ARGS_INVALID", invalid.output)
      result.title = invalid.title
      result.output = invalid.output
      result.metadata = { truncated: false }
      return finish()
    }
    throw new ToolTesterError(
      "TOOL_NOT_FOUND",
      `${result.id} is a built-in opencode tool; tool-tester runs custom and plugin tools only: call one of ${customIds(prepared).join(", ") || "(none found)"}`,
      { data: { tool: result.id } },
    )
  }
  const tool = entry.tool
  const sessionID = options.sessionID ?? ascendingId("ses")
  const callID = options.callID ?? `call_${ascendingId("prt").slice(4, 16)}`
  const messageID = options.messageID ?? ascendingId("msg")

  try {
    await runBeforeHooks(project, tool, sessionID, callID, result)
  } catch (error) {
    return fail("TOOL_THREW", thrownText(error), `a tool.execute.before hook threw: ${thrownText(error)}`)
  }

  if (options.validate) {
    const validated = validateArgs(tool.id, tool.definition, result.args)
    if (!validated.success) return fail("ARGS_INVALID", validated.message)
    result.args = validated.value
  }

  const controller = new AbortController()
  const abortFromCaller = () => controller.abort(options.signal?.reason)
  options.signal?.addEventListener("abort", abortFromCaller, { once: true })
  const context = createToolContext({
    sessionID,
    messageID,
    callID,
    agent: options.agent ?? "build",
    directory: project.directory,
    worktree: project.worktree,
    abort: controller.signal,
    model,
    messages: options.messages ?? [
      userMessage(sessionID, options.prompt ?? "tool-tester", model, options.agent ?? "build"),
    ],
    rules,
    askPolicy: options.permissions?.ask ?? "allow",
    asks: result.asks,
    metadataCalls: result.metadataCalls,
  })

  let value: unknown
  try {
    value = await withTimeout(
      Promise.resolve().then(() => callExecute(tool, result.args, context)),
      options.timeoutMs,
      controller,
    )
  } catch (error) {
    if (ToolTesterError.isInstance(error) && error.code === "TOOL_TIMEOUT") return fail("TOOL_TIMEOUT", error.message)
    return fail("TOOL_THREW", thrownText(error), `${tool.file}: ${tool.id} threw: ${thrownText(error)}`)
  } finally {
    options.signal?.removeEventListener("abort", abortFromCaller)
  }

  const normalized = normalizeResult(value)
  if (!normalized.success)
    return fail("TOOL_BAD_RESULT", normalized.modelText, `${tool.file}: ${tool.id}: ${normalized.message}`)
  const limits = project.config.tool_output ?? {}
  const truncation = await truncateOutput(normalized.value.output, {
    maxLines: options.maxLines ?? limits.max_lines ?? 2000,
    maxBytes: options.maxBytes ?? limits.max_bytes ?? 51200,
    hasTaskTool: hasTaskTool(rules),
    outputDir: path.join(dataDirectory, "tool-output"),
  })
  result.title = normalized.value.title
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
    sessionID,
    messageID,
  }))

  try {
    await runAfterHooks(project, tool, sessionID, callID, result)
  } catch (error) {
    return fail("TOOL_THREW", thrownText(error), `a tool.execute.after hook threw: ${thrownText(error)}`)
  }
  return finish()
}

/** The session history opencode passes: the user's message, as `{ info, parts }`. */
function userMessage(sessionID: string, text: string, model: ModelSelection, agent: string) {
  const id = ascendingId("msg")
  return {
    info: {
      id,
      sessionID,
      role: "user",
      time: { created: Date.now() },
      agent,
      model: { providerID: model.providerID, modelID: model.modelID },
    },
    parts: [{ id: ascendingId("prt"), sessionID, messageID: id, type: "text", text }],
  }
}

function callExecute(tool: LoadedTool, args: unknown, context: Record<string, unknown>): unknown {
  const execute = tool.definition.execute
  if (typeof execute !== "function") {
    throw new TypeError(`${tool.id}'s execute is ${typeof execute}, not a function`)
  }
  return execute.call(tool.definition, args, context)
}

async function runBeforeHooks(
  project: ToolProject,
  tool: LoadedTool,
  sessionID: string,
  callID: string,
  result: RunResult,
) {
  // Only in-place changes of output.args reach the tool: opencode keeps its own reference (spec §9.2).
  const output = { args: result.args }
  for (const plugin of project.plugins) {
    const hook = plugin.hooks["tool.execute.before"]
    if (typeof hook === "function") await hook({ tool: tool.id, sessionID, callID }, output)
  }
}

async function runAfterHooks(
  project: ToolProject,
  tool: LoadedTool,
  sessionID: string,
  callID: string,
  result: RunResult,
) {
  const output: Record<string, unknown> = {
    title: result.title,
    output: result.output,
    metadata: result.metadata,
    attachments: result.attachments,
  }
  let ran = false
  for (const plugin of project.plugins) {
    const hook = plugin.hooks["tool.execute.after"]
    if (typeof hook !== "function") continue
    ran = true
    await hook({ tool: tool.id, sessionID, callID, args: result.args }, output)
  }
  if (!ran) return
  result.title = output["title"] as string
  result.output = output["output"] as string
  result.metadata = output["metadata"] as Record<string, unknown>
}

async function withTimeout<T>(
  promise: Promise<T>,
  timeoutMs: number | undefined,
  controller: AbortController,
): Promise<T> {
  if (timeoutMs === undefined) return promise
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort(new Error("timeout"))
      reject(
        new ToolTesterError(
          "TOOL_TIMEOUT",
          `the tool did not finish within ${timeoutMs} ms; its abort signal was fired`,
        ),
      )
    }, timeoutMs)
  })
  try {
    return await Promise.race([promise, timeout])
  } finally {
    clearTimeout(timer)
  }
}

function customIds(prepared: ReturnType<typeof preparedTools>): string[] {
  return prepared.filter((entry) => entry.source !== "builtin").map((entry) => entry.id)
}
