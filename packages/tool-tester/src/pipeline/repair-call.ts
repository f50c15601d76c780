import { inBun } from "../runtime/here.ts"
import { FORBIDDEN_PROTOTYPE, hasForbiddenPrototype } from "./forbidden-prototype.ts"
import { jsonParseErrorMessage } from "./json-parse-error.ts"
import type { ToolEntry } from "./tool-list.ts"

/** A call as the model made it: a tool name and the raw argument text. */
export type RawToolCall = { name: string; rawArguments: string }

/**
 * What opencode does with a call before running it (docs/opencode-contract.md#repair, observed on
 * 1.18.34).
 */
export type ResolvedCall =
  | { kind: "run"; id: string; args: unknown; repaired: boolean }
  | { kind: "invalid"; args: { tool: string; error: string } }
  /** A repaired name whose arguments are not JSON: the AI SDK parses once more and the call fails, unrun. */
  | { kind: "failed"; id: string; message: string }

/**
 * opencode's repair of a model's tool call: a name in the wrong case runs the lowercase tool when
 * it exists; an unknown name, or arguments that are not JSON (or hold a `__proto__` key:
 * forbidden-prototype.ts), reroute the call to `invalid` with the AI SDK's error text. An empty
 * argument string means `{}`. A call repaired to lowercase whose arguments are not JSON is not
 * rerouted: it fails with the parse error and no tool runs (observed on 1.18.34: the `repair`
 * golden).
 */
export function resolveCall(call: RawToolCall, prepared: readonly ToolEntry[]): ResolvedCall {
  const ids = prepared.map((entry) => entry.id)
  let id = call.name
  let repaired = false
  if (!ids.includes(id)) {
    const lower = id.toLowerCase()
    if (lower !== id && ids.includes(lower)) {
      id = lower
      repaired = true
    } else {
      const error = `Model tried to call unavailable tool '${call.name}'. Available tools: ${ids.join(", ")}.`
      return { kind: "invalid", args: { tool: call.name, error } }
    }
  }
  if (call.rawArguments.trim() === "") return { kind: "run", id, args: {}, repaired }
  let args: unknown
  try {
    args = JSON.parse(call.rawArguments)
  } catch (error) {
    // The model reads Bun's wording of the parse error: the engine's own in Bun, else rebuilt.
    const thrown = error instanceof Error ? error.message : String(error)
    return unparsable(call, id, repaired, inBun ? thrown : (jsonParseErrorMessage(call.rawArguments) ?? thrown))
  }
  if (hasForbiddenPrototype(args)) return unparsable(call, id, repaired, FORBIDDEN_PROTOTYPE)
  return { kind: "run", id, args, repaired }
}

/** Arguments the AI SDK could not parse: rerouted to `invalid`, or failed unrun after a repaired name. */
function unparsable(call: RawToolCall, id: string, repaired: boolean, reason: string): ResolvedCall {
  const message = `Invalid input for tool ${id}: JSON parsing failed: Text: ${call.rawArguments}.\nError message: ${reason}`
  if (repaired) return { kind: "failed", id, message }
  return { kind: "invalid", args: { tool: call.name, error: message } }
}
