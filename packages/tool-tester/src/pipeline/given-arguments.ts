// Arguments given already parsed (runTool, `run --args`, `run key=value`, dev's argument form)
// stand for a model's call, whose arguments are JSON text: the text of given arguments is their
// JSON, as e2e sends a script's `args`. opencode refuses that text when it holds a `__proto__` key
// or a `constructor.prototype` (forbidden-prototype.ts, observed on 1.18.34), so such arguments go
// through repair as that text, and end as opencode ends the call: rerouted to `invalid`, or failed
// unrun after a repaired name. An object literal's `{ __proto__: x }` sets the object's prototype,
// which no JSON text holds (JSON.stringify leaves it out): it is not a key of the call.

import { pristineStringify } from "../_pristine.ts"
import { hasForbiddenPrototype } from "./forbidden-prototype.ts"
import type { RawToolCall } from "./repair-call.ts"

/**
 * The model's call that `args` given to the tool `name` stand for, as repair reads it: their JSON
 * text when opencode refuses it, else `{}` (repair only needs the name, and the arguments reach
 * the tool as given).
 */
export function givenCall(name: string, args: unknown): RawToolCall {
  return { name, rawArguments: refusedText(args) ?? "{}" }
}

// --- internal ---

/** The JSON text of `args` when it holds a key the AI SDK refuses. */
function refusedText(args: unknown): string | undefined {
  let text: string | undefined
  try {
    // As it was before any user code ran: a tool file may have replaced JSON.stringify.
    text = pristineStringify(args)
  } catch {
    // A cycle, a BigInt, a throwing toJSON: no JSON text, so no model sends these.
    return undefined
  }
  // JSON.stringify writes both keys as they are (it escapes no letter), so a text without either
  // has neither, and most calls skip the parse.
  if (text === undefined || !(text.includes('"__proto__"') || text.includes('"constructor"'))) return undefined
  return hasForbiddenPrototype(JSON.parse(text)) ? text : undefined
}
