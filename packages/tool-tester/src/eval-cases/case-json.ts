// A case from a TS or JS case file as it crosses from the engine that imported it to eval's own
// process (src/tasks/eval-cases-task.ts): JSON, in the shapes a JSON case file may use. A RegExp
// becomes `{ "$regex", "$flags" }`; a predicate cannot cross and becomes `{ "$predicate": name }`,
// a placeholder that only says where one was: such cases are graded in the engine, where the
// predicate is (src/eval/project-cases.ts). Nothing else in a checked case is anything but JSON.
import type { EvalCase } from "./types.ts"

/** A predicate's place in a case that crossed: its name ("" for an anonymous one). */
const PREDICATE_KEY = "$predicate"

/** The case as JSON values: RegExps as `$regex` matchers, predicates as placeholders. */
export function caseToJson(evalCase: EvalCase): EvalCase {
  return toJson(evalCase) as EvalCase
}

// --- internal ---

function toJson(value: unknown): unknown {
  if (typeof value === "function") return { [PREDICATE_KEY]: value.name }
  if (value instanceof RegExp) return { $regex: value.source, $flags: value.flags }
  if (Array.isArray(value)) return value.map(toJson)
  if (typeof value !== "object" || value === null) return value
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, toJson(item)]))
}
