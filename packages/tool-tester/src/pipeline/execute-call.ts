import path from "node:path"
import { restoreBuiltins } from "../_pristine.ts"
import { hasTaskTool } from "../config/permission.ts"
import { liveDefinition } from "../engine/live.ts"
import type { ToolTesterErrorCode } from "../errors.ts"
import { ToolTesterError } from "../errors.ts"
import type { LoadedTool, ToolProject } from "../load-tools.ts"
import type { RunOptions, RunResult } from "../run-tool.ts"
import { ascendingId } from "./ascending-id.ts"
import type { ModelSelection } from "./builtins.ts"
import { DEFAULT_MODEL } from "./builtins.ts"
import { defaultDataDirectory } from "./data-directory.ts"
import { runInvalidTool } from "./invalid-tool.ts"
import { normalizeResult, thrownDetails, thrownText } from "./normalize-result.ts"
import { type HookError, partEvents } from "./part-events.ts"
import { agentRules } from "./permissions.ts"
import { runAfterHooks, runBeforeHooks } from "./plugin-hooks.ts"
import type { RawToolCall } from "./repair-call.ts"
import { resolveCall } from "./repair-call.ts"
import { runSessionHooks } from "./session-hooks.ts"
import { createToolContext } from "./tool-context.ts"
import { preparedTools } from "./tool-list.ts"
import { truncateOutput } from "./truncate.ts"
import { userMessage } from "./user-message.ts"
import { validateArgs } from "./validate-args.ts"
import { withTimeout } from "./with-timeout.ts"

/**
 * One call as opencode runs it (docs/opencode-contract.md#registry-wrapper): name repair or
 * rerouting to `invalid`, the plugins' before hooks, opt-in validation, execute with opencode's
 * context, result normalisation, truncation with the full text saved, then the after hooks.
 * Failures of the tool are reported in the result (the model reads `output`); only asking for a
 * built-in throws.
 */
export async function executeCall(
  project: ToolProject,
  call: RawToolCall,
  given: { parsed: unknown } | undefined,
  options: RunOptions,
): Promise<RunResult> {
  // process.hrtime, not performance.now(): the first use of `performance` loads perf_hooks (~1 ms in a worker).
  const started = process.hrtime.bigint()
  const model: ModelSelection = { ...DEFAULT_MODEL, ...options.model }
  const dataDirectory = options.dataDirectory ?? defaultDataDirectory()
  const rules = agentRules({ config: project.config.permission, overrides: options.permissions, dataDirectory })
  const prepared = preparedTools(project, model, rules)
  const resolved = resolveCall(given ? { name: call.name, rawArguments: "{}" } : call, prepared)
  const result: RunResult = {
    name: call.name,
    // A failed repaired call keeps the name as called, as opencode's history does.
    id: resolved.kind === "run" ? resolved.id : resolved.kind === "failed" ? call.name : "invalid",
    status: "completed",
    output: "",
    title: "",
    metadata: {},
    attachments: undefined,
    truncated: false,
    outputPath: undefined,
    asks: [],
    metadataCalls: [],
    durationMs: 0,
    args:
      resolved.kind === "run"
        ? given
          ? given.parsed
          : resolved.args
        : resolved.kind === "invalid"
          ? resolved.args
          : call.rawArguments,
    repaired: resolved.kind === "failed" || (resolved.kind === "run" && resolved.repaired),
    rerouted: resolved.kind === "invalid",
  }
  const finish = () => {
    result.durationMs = Math.round(Number(process.hrtime.bigint() - started) / 10_000) / 100
    return result
  }
  const fail = (code: ToolTesterErrorCode, output: string, message = output, thrown?: unknown) => {
    result.status = "error"
    result.output = output
    // A failed call's part has no title and no metadata in opencode
    // (docs/opencode-contract.md#failed-call-parts).
    result.title = null
    result.metadata = null
    result.error = thrown === undefined ? { code, message } : { code, message, thrown: thrownDetails(thrown) }
    return finish()
  }

  if (resolved.kind === "failed") {
    return fail(
      "ARGS_INVALID",
      resolved.message,
      `${call.name} was repaired to ${resolved.id}, but its arguments are not JSON: opencode fails the call without running the tool`,
    )
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
  const agent = options.agent ?? "build"
  const messages = options.messages ?? [userMessage(sessionID, options.prompt ?? "tool-tester", model, agent)]

  try {
    await runSessionHooks(project, { sessionID, agent, model, messages })
  } catch (error) {
    const text = thrownText(error)
    return fail(
      "TOOL_THREW",
      text,
      `a plugin's chat.message, chat.system.transform, chat.params or chat.headers hook threw: ${text}`,
      error,
    )
  }
  // The tool part's events, the before hooks, the tool itself, then the after hooks.
  const hookErrors: HookError[] = []
  const events = partEvents(project, { sessionID, messageID, callID, tool: tool.id }, hookErrors)
  const runFound = async (): Promise<RunResult> => {
    try {
      await runBeforeHooks(project, tool, sessionID, callID, result)
    } catch (error) {
      return fail("TOOL_THREW", thrownText(error), `a tool.execute.before hook threw: ${thrownText(error)}`, error)
    }

    if (options.validate) {
      const validated = validateArgs(tool.id, liveDefinition(tool), result.args)
      if (!validated.success) return fail("ARGS_INVALID", validated.message)
      result.args = validated.value
    }

    const controller = new AbortController()
    const abortFromCaller = () => controller.abort(options.signal?.reason)
    // A signal aborted before the call still reaches the tool's context.abort.
    if (options.signal?.aborted) abortFromCaller()
    else options.signal?.addEventListener("abort", abortFromCaller, { once: true })
    const context = createToolContext({
      sessionID,
      messageID,
      callID,
      agent,
      directory: project.directory,
      worktree: project.worktree,
      abort: controller.signal,
      model,
      messages,
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
      return fail("TOOL_THREW", thrownText(error), `${tool.file}: ${tool.id} threw: ${thrownText(error)}`, error)
    } finally {
      options.signal?.removeEventListener("abort", abortFromCaller)
    }

    // Tools share the engine's built-ins with opencode: put back what this one replaced before the
    // pipeline goes on with them, and fail the call, since in opencode it would break opencode.
    const tampered = restoreBuiltins()
    if (tampered.length > 0) {
      return fail(
        "TOOL_TAMPERED",
        `the tool changed the engine's built-ins (${tampered.join(", ")})`,
        `${tool.file}: ${tool.id} changed the engine's built-ins (${tampered.join(", ")}); tools run in opencode's own process, so this breaks opencode itself: use functions of your own instead`,
      )
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
      return fail("TOOL_THREW", thrownText(error), `a tool.execute.after hook threw: ${thrownText(error)}`, error)
    }
    return finish()
  }
  await events.pending()
  await events.running(result.args)
  const finished = await runFound()
  await events.finished(finished)
  if (hookErrors.length > 0) finished.hookErrors = hookErrors
  return finished
}

function callExecute(tool: LoadedTool, args: unknown, context: Record<string, unknown>): unknown {
  const definition = liveDefinition(tool)
  const execute = definition.execute
  if (typeof execute !== "function") {
    throw new TypeError(`${tool.id}'s execute is ${typeof execute}, not a function`)
  }
  return execute.call(definition, args, context)
}

function customIds(prepared: ReturnType<typeof preparedTools>): string[] {
  return prepared.filter((entry) => entry.source !== "builtin").map((entry) => entry.id)
}
