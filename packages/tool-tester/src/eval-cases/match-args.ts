// Whether the arguments of a call match what a case expects (the matchers of src/eval/types.ts):
// JSON values exactly, objects partially (the keys listed must match, others are free), arrays
// element by element with equal lengths, `$regex` / a RegExp against a string, `$exact` by deep
// equality, `$any` for any value that is present, and a function as a predicate on the value
// (which must return true or false: anything else fails the grade, saying what it returned).
// A mismatch says where and why, so a grade can tell the author what the model sent instead.
import { isDeepStrictEqual } from "node:util"
import { messageOfThrown } from "../errors.ts"
import type { ArgsMatcher, ValueMatcher } from "./types.ts"
import { formatMatcher, formatValue } from "./format-value.ts"

export type MatchOutcome =
  | { match: true }
  /** `path` is where the first difference is (`city`, `days[2]`, or "" for the whole value). */
  | { match: false; path: string; expected: string; got: string }
  /** A predicate threw: the grade fails with its message. */
  | { match: false; path: string; threw: string }

/** Matches a call's arguments against an expected call's `args`. */
export function matchArgs(matcher: ArgsMatcher, args: unknown): MatchOutcome {
  return matchValue(matcher as ValueMatcher, args, "", true)
}

/** Matches one value against one matcher; `path` names where the value is, for the outcome. */
export function matchValue(
  matcher: ValueMatcher,
  value: unknown,
  path = "",
  present = value !== undefined,
): MatchOutcome {
  const fail = (got = present ? formatValue(value, 60) : "nothing"): MatchOutcome => ({
    match: false,
    path,
    expected: formatMatcher(matcher, 60),
    got,
  })
  if (typeof matcher === "function") return callPredicate(matcher, value, path, fail)
  if (matcher instanceof RegExp) return typeof value === "string" && testPattern(matcher, value) ? ok : fail()
  if (matcher === null || typeof matcher !== "object")
    return Object.is(matcher, value) || matcher === value ? ok : fail()
  if (Array.isArray(matcher)) {
    if (!Array.isArray(value)) return fail()
    if (value.length !== matcher.length)
      return fail(`${formatValue(value, 60)} (${value.length} items, expected ${matcher.length})`)
    for (const [index, item] of matcher.entries()) {
      const outcome = matchValue(item, value[index], `${path}[${index}]`)
      if (!outcome.match) return outcome
    }
    return ok
  }
  const record = matcher as Record<string, ValueMatcher>
  if ("$regex" in record && typeof record["$regex"] === "string") {
    if (typeof value !== "string") return fail()
    const flags = typeof record["$flags"] === "string" ? record["$flags"] : ""
    let pattern: RegExp
    try {
      pattern = new RegExp(record["$regex"], flags)
    } catch (error) {
      return { match: false, path, threw: `"$regex" is not a valid regular expression (${messageOfThrown(error)})` }
    }
    return testPattern(pattern, value) ? ok : fail()
  }
  if (isOnly(record, "$any")) return present ? ok : fail()
  if (isOnly(record, "$exact")) return present && isDeepStrictEqual(value, record["$exact"]) ? ok : fail()
  if (typeof value !== "object" || value === null || Array.isArray(value)) return fail()
  const actual = value as Record<string, unknown>
  for (const key of Object.keys(record)) {
    const has = Object.hasOwn(actual, key)
    const outcome = matchValue(record[key] as ValueMatcher, actual[key], joinKey(path, key), has)
    if (!outcome.match) return outcome
  }
  return ok
}

/** `where: expected X, got Y`, or the predicate's error, as one short phrase. */
export function describeMismatch(outcome: Exclude<MatchOutcome, { match: true }>): string {
  const where = outcome.path === "" ? "" : `${outcome.path}: `
  if ("threw" in outcome) return `${where}${outcome.threw}`
  return `${where}expected ${outcome.expected}, got ${outcome.got}`
}

// --- internal ---

const ok: MatchOutcome = { match: true }

function callPredicate(
  predicate: (value: unknown) => unknown,
  value: unknown,
  path: string,
  fail: () => MatchOutcome,
): MatchOutcome {
  let result: unknown
  try {
    result = predicate(value)
  } catch (error) {
    return { match: false, path, threw: `the predicate threw: ${messageOfThrown(error)}` }
  }
  if (typeof (result as { then?: unknown } | null)?.then === "function") {
    return {
      match: false,
      path,
      threw: "the predicate returned a Promise; predicates must answer at once (true or false)",
    }
  }
  // Typed `=> boolean` and documented "true or false": a string or an object is most often a
  // predicate that returns the value it found (`find`, `match`) where a test was meant.
  if (typeof result !== "boolean") {
    return {
      match: false,
      path,
      threw: `the predicate returned ${describeReturned(result)}; a predicate must return true or false`,
    }
  }
  return result ? ok : fail()
}

/** What a predicate returned instead of a boolean: `"Paris" (a string)`, `undefined (no return?)`. */
function describeReturned(value: unknown): string {
  if (value === undefined) return "undefined (no return?)"
  if (value === null) return "null"
  const kind = Array.isArray(value) ? "an array" : typeof value === "object" ? "an object" : `a ${typeof value}`
  return `${formatValue(value, 60)} (${kind})`
}

/** `g` and `y` make `test` stateful (it starts at `lastIndex`): a copy without them tests from the start. */
function testPattern(pattern: RegExp, value: string): boolean {
  const plain =
    pattern.global || pattern.sticky ? new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, "")) : pattern
  return plain.test(value)
}

function isOnly(record: Record<string, unknown>, key: string): boolean {
  const keys = Object.keys(record)
  return keys.length === 1 && keys[0] === key
}

function joinKey(path: string, key: string): string {
  const segment = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : JSON.stringify(key)
  if (path === "") return /^[A-Za-z_$]/.test(segment) ? segment : `[${segment}]`
  return /^[A-Za-z_$]/.test(segment) ? `${path}.${segment}` : `${path}[${segment}]`
}
