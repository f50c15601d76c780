// The SCRIPT the mock model plays: a list of model turns. Each turn either calls tools or answers
// with text. A JSON file can hold the object form or just the list of turns:
//
//   {"prompt": "use the tools", "turns": [
//     {"calls": [{"tool": "greet", "args": {"name": "Ada"}}]},
//     {"calls": [{"tool": "greet", "rawArgs": "{not json"}]},
//     {"text": "done"}
//   ]}
//
// `args` is sent as JSON; `rawArgs` is sent verbatim (to test unparsable or empty arguments).
// Several calls in one turn are sent as one parallel batch. When the turns run out, the mock answers
// with text so opencode stops.

import { isRecord } from "../_is-record.ts"
import { ToolTesterError } from "../errors.ts"

export interface ScriptCall {
  /** The tool name as the model calls it (case and unknown names are kept, to test repair). */
  tool: string
  /** Arguments, sent as their JSON text. */
  args?: Record<string, unknown>
  /** Arguments sent verbatim, even when they are not JSON. */
  rawArgs?: string
  /** The provider's tool call id; `call_1`, `call_2`, ... by default. */
  id?: string
}

export interface ScriptTurn {
  /** Text the model says (alone, or before its tool calls). */
  text?: string
  /** Tool calls of this turn, sent as one parallel batch. */
  calls?: ScriptCall[]
}

export interface Script {
  /** The user prompt given to `opencode run`. */
  prompt?: string
  turns: ScriptTurn[]
}

export const defaultPrompt = "Follow the script."

/** Checks a parsed script (the object form or a bare list of turns); throws SCRIPT_INVALID. */
export function parseScript(value: unknown): Script {
  const object = Array.isArray(value) ? { turns: value } : value
  if (!isRecord(object)) fail("expected an object with a `turns` list, or a list of turns")
  checkKeys(object, ["prompt", "turns"], "script")
  if (object.prompt !== undefined && (typeof object.prompt !== "string" || object.prompt.trim() === "")) {
    fail("`prompt` must be a non-empty string")
  }
  if (!Array.isArray(object.turns)) fail("`turns` must be a list of turns")
  const turns = object.turns.map((turn, index) => parseTurn(turn, `turns[${index}]`))
  return object.prompt === undefined ? { turns } : { prompt: object.prompt, turns }
}

/**
 * Parses the JSON text of a script file; throws SCRIPT_INVALID, naming `file` when given (the path
 * the text was read from) in its message and `data.file`.
 */
export function parseScriptText(text: string, file?: string): Script {
  let value: unknown
  try {
    // Editors on Windows may start a UTF-8 file with a byte order mark (Notepad, PowerShell 5's
    // Set-Content -Encoding UTF8); it is not JSON, and eval's case files and opencode.json allow it too.
    value = JSON.parse(text.replace(/^\uFEFF/, ""))
  } catch (error) {
    throw invalid(`not valid JSON (${error instanceof Error ? error.message : String(error)})`, file)
  }
  try {
    return parseScript(value)
  } catch (error) {
    const problem = ToolTesterError.isInstance(error) ? error.data?.["problem"] : undefined
    if (file === undefined || typeof problem !== "string") throw error
    throw invalid(problem, file)
  }
}

/** The argument text a call sends: `rawArgs` verbatim, else the JSON of `args` (`{}` when absent). */
export function argumentText(call: ScriptCall): string {
  return call.rawArgs ?? JSON.stringify(call.args ?? {})
}

// --- internal ---

function parseTurn(value: unknown, where: string): ScriptTurn {
  if (!isRecord(value)) fail(`${where} must be an object like {"calls": [...]} or {"text": "..."}`)
  checkKeys(value, ["text", "calls"], where)
  if (value.text === undefined && value.calls === undefined) fail(`${where} needs \`calls\` or \`text\``)
  const turn: ScriptTurn = {}
  if (value.text !== undefined) {
    if (typeof value.text !== "string") fail(`${where}.text must be a string`)
    turn.text = value.text
  }
  if (value.calls !== undefined) {
    if (!Array.isArray(value.calls) || value.calls.length === 0) fail(`${where}.calls must be a non-empty list`)
    turn.calls = value.calls.map((call, index) => parseCall(call, `${where}.calls[${index}]`))
  }
  return turn
}

function parseCall(value: unknown, where: string): ScriptCall {
  if (!isRecord(value)) fail(`${where} must be an object like {"tool": "name", "args": {...}}`)
  checkKeys(value, ["tool", "args", "rawArgs", "id"], where)
  if (typeof value.tool !== "string" || value.tool === "") fail(`${where}.tool must be a non-empty string`)
  if (value.args !== undefined && value.rawArgs !== undefined) fail(`${where}: give \`args\` or \`rawArgs\`, not both`)
  const call: ScriptCall = { tool: value.tool }
  if (value.args !== undefined) {
    if (!isRecord(value.args)) fail(`${where}.args must be an object (use \`rawArgs\` to send any text)`)
    call.args = value.args
  }
  if (value.rawArgs !== undefined) {
    if (typeof value.rawArgs !== "string") fail(`${where}.rawArgs must be a string`)
    call.rawArgs = value.rawArgs
  }
  if (value.id !== undefined) {
    if (typeof value.id !== "string" || value.id === "") fail(`${where}.id must be a non-empty string`)
    call.id = value.id
  }
  return call
}

function checkKeys(value: Record<string, unknown>, allowed: string[], where: string): void {
  const unknown = Object.keys(value).find((key) => !allowed.includes(key))
  if (unknown !== undefined) {
    fail(`${where} has an unknown key \`${unknown}\` (allowed: ${allowed.join(", ")})`)
  }
}

function fail(problem: string): never {
  throw invalid(problem)
}

function invalid(problem: string, file?: string): ToolTesterError {
  return new ToolTesterError(
    "SCRIPT_INVALID",
    `Invalid e2e script${file === undefined ? "" : ` ${file}`}: ${problem}.`,
    {
      data: file === undefined ? { problem } : { problem, file },
    },
  )
}
