import { isRecord } from "./_is-record.ts"
import { checkTimeoutOption } from "./_timeout-bound.ts"
import { projectClientOf } from "./client/project-client.ts"
import { messageOfThrown, ToolTesterError } from "./errors.ts"
import { pristineStringify } from "./_pristine.ts"
import { described } from "./_described.ts"
import { refuseUnknownOptions } from "./_known-options.ts"
import { MODEL_MODALITIES } from "./pipeline/model-messages.ts"
import type { RawToolCall } from "./pipeline/repair-call.ts"
import { attachEngine, engineOf } from "./project-engine/engine-of.ts"
import { closedEngine, localEngine } from "./project-engine/local-engine.ts"
import type { RunOptions, RunResult, ToolProject } from "./types.ts"

export type { RunOptions, RunResult } from "./types.ts"

/**
 * Runs a tool by name with arguments already parsed, as opencode runs a model's call. Rejects with
 * USAGE for a `timeoutMs` that is not above 0 and at most 2000000000 (a timer cannot wait longer),
 * a name that is not a string, options that are not an object or limits that are not whole
 * numbers above 0, and arguments JSON.stringify cannot write (a cycle, a BigInt, a throwing getter
 * or toJSON): they stand for the JSON text of a model's call, which cannot hold them.
 */
export async function runTool(
  project: ToolProject,
  name: string,
  args: unknown,
  options: RunOptions = {},
): Promise<RunResult> {
  if (typeof name !== "string")
    throw usage(`runTool's name must be the tool's name, a string, not ${described(name)}`, "name")
  checkRunOptions("runTool", options)
  const unwritten = jsonTextProblem(args)
  if (unwritten !== undefined)
    throw usage(
      `runTool's args have no JSON text (${unwritten}), and a model's call is JSON text, so no model can make this one: pass plain data (objects, arrays, strings, numbers, booleans, null)`,
      "args",
    )
  return engineOf(project).run(project, { name, args }, options)
}

/**
 * Runs a model's raw call (name + argument text) through opencode's repair first: wrong case fixed,
 * unknown names and unparsable JSON rerouted to `invalid`. Rejects with USAGE as {@link runTool}
 * does, and for a call that is not `{ name, rawArguments }` strings.
 */
export async function callTool(project: ToolProject, call: RawToolCall, options: RunOptions = {}): Promise<RunResult> {
  if (!isRecord(call) || typeof call.name !== "string")
    throw usage(
      `callTool's call must be { name, rawArguments }, the tool's name and the argument text the model sends, not ${described(call)}`,
      "call",
    )
  if (typeof call.rawArguments !== "string")
    throw usage(
      `callTool's call.rawArguments must be the argument text the model sends, a string such as '{"city":"Paris"}', not ${described(call.rawArguments)}: JSON.stringify the arguments, or pass them to runTool()`,
      "rawArguments",
    )
  checkRunOptions("callTool", options)
  return engineOf(project).run(project, { call }, options)
}

/**
 * Ends the bun engine's process of a project and everything its tools started, and the opencode
 * server behind its plugins' `input.client` (started, or still starting): all are killed before it
 * returns. Later calls on the project reject with ENGINE_FAILED, whichever engine it was loaded in.
 * Optional: neither keeps the process alive, and both end with it.
 */
export function closeProject(project: ToolProject): void {
  const engine = engineOf(project)
  engine.close()
  // Its tools ran in this process: later calls fail all the same, as under the bun engine.
  if (engine === localEngine) attachEngine(project, closedEngine)
  projectClientOf(project)?.stop()
}

// --- internal ---

/** Why `args` has no JSON text (the first line of what JSON.stringify threw), or undefined. */
function jsonTextProblem(args: unknown): string | undefined {
  try {
    // As it was before any user code ran: a tool file may have replaced JSON.stringify.
    pristineStringify(args)
    return undefined
  } catch (error) {
    return (messageOfThrown(error).split("\n")[0] ?? "").trim() || "JSON.stringify threw"
  }
}

/** Every option a call takes: a key it does not know (`timeout` for `timeoutMs`) would be dropped without a word. */
const RUN_OPTIONS: Record<keyof RunOptions, true> = {
  model: true,
  modelInput: true,
  validate: true,
  permissions: true,
  maxLines: true,
  maxBytes: true,
  dataDirectory: true,
  timeoutMs: true,
  agent: true,
  sessionID: true,
  messageID: true,
  callID: true,
  messages: true,
  prompt: true,
  signal: true,
}

/** Refuses options a call cannot run with (USAGE naming the option), before anything runs. */
function checkRunOptions(caller: string, options: RunOptions): void {
  if (!isRecord(options)) throw usage(`${caller}'s options must be an object, not ${described(options)}`, "options")
  refuseUnknownOptions(caller, options, RUN_OPTIONS)
  checkTimeoutOption("timeoutMs", options.timeoutMs)
  // As opencode refuses these in tool_output (CONFIG_INVALID): a limit of 0 would cut every output.
  for (const option of ["maxLines", "maxBytes"] as const) {
    const value = options[option]
    if (value !== undefined && (!Number.isSafeInteger(value) || value < 1))
      throw usage(`${option} must be a whole number above 0, not ${described(value)}`, option)
  }
  const input = options.modelInput
  if (input !== undefined && (!Array.isArray(input) || !input.every((name) => MODEL_MODALITIES.includes(name))))
    throw usage(`modelInput must be a list of ${MODEL_MODALITIES.join(", ")}, not ${described(input)}`, "modelInput")
}

function usage(message: string, option: string): ToolTesterError {
  return new ToolTesterError("USAGE", message, { data: { option } })
}
