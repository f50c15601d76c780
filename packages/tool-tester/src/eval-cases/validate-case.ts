// Checks one case as read from a case file against the shapes of src/eval/types.ts. Written by
// hand rather than with a zod schema: each problem must name the key path (so the loader can find
// its line in a JSON file), suggest the key that was meant, and say why a `$regex` does not compile
// or which matcher a `$`-key was meant to be; zod's union and unknown-key issues say none of that.
import { messageOfThrown } from "../errors.ts"
import { didYouMean } from "../did-you-mean.ts"

export type KeyPath = Array<string | number>

export interface ShapeProblem {
  /** From the case itself (`["expect", "calls", 0, "tool"]`). */
  path: KeyPath
  message: string
}

/** A tool id a case names, where it names it. */
export interface ToolReference {
  path: KeyPath
  tool: string
}

/** The problems of one case, and the tool ids it names (expected, forbidden, given results, executed). */
export function validateCase(value: unknown): { problems: ShapeProblem[]; tools: ToolReference[] } {
  const check = new Checker()
  check.caseValue(value)
  return { problems: check.problems, tools: check.tools }
}

/** `cases[2].expect.calls[0].args.city` from a path. */
export function formatKeyPath(path: KeyPath): string {
  let text = ""
  for (const segment of path) {
    if (typeof segment === "number") text += `[${segment}]`
    else if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(segment)) text += text === "" ? segment : `.${segment}`
    else text += `[${JSON.stringify(segment)}]`
  }
  return text
}

/** Keys a case file may use beside the case's own (a note to whoever edits it). */
export const NOTE_KEY = "//"

// --- internal ---

const BUDGET_KEYS = ["maxTokens", "maxCost", "maxMs"]
const CASE_KEYS = [
  "name",
  "prompt",
  "expect",
  "turns",
  "runs",
  "agent",
  "results",
  "execute",
  "maxCalls",
  ...BUDGET_KEYS,
  NOTE_KEY,
]
const TURN_KEYS = ["prompt", "expect", ...BUDGET_KEYS, NOTE_KEY]
const EXPECT_KEYS = ["calls", "ordered", "notCalled"]
const CALL_KEYS = ["tool", "args"]
const MATCHER_KEYS = ["$regex", "$flags", "$exact", "$any"]
const REGEX_FLAGS = /^[dgimsuvy]*$/

class Checker {
  readonly problems: ShapeProblem[] = []
  readonly tools: ToolReference[] = []

  caseValue(value: unknown): void {
    const record = this.object(value, [], "a case must be an object with a name and a prompt")
    if (!record) return
    if (Object.hasOwn(record, "source")) {
      this.problem(["source"], `"source" is set by the loader (where the case was read); remove it`)
    }
    this.keys(record, [], CASE_KEYS, (key) => key !== "source")
    if (this.requiredText(record, [], "name") && hasControlCharacter(record["name"] as string)) {
      // Names head table rows and key the history: one line of plain text.
      this.problem(["name"], "must be one line of text, without control characters")
    }
    this.requiredText(record, [], "prompt")
    if (record["expect"] !== undefined) this.expectation(record["expect"], ["expect"])
    if (record["turns"] !== undefined) {
      const turns = this.array(record["turns"], ["turns"], "a list of follow-up turns ({ prompt, expect })")
      for (const [index, turn] of (turns ?? []).entries()) {
        const path = ["turns", index]
        const turnRecord = this.object(turn, path, "a turn must be an object with a prompt ({ prompt, expect })")
        if (!turnRecord) continue
        this.keys(turnRecord, path, TURN_KEYS)
        this.requiredText(turnRecord, path, "prompt")
        if (turnRecord["expect"] !== undefined) this.expectation(turnRecord["expect"], [...path, "expect"])
        this.budget(turnRecord, path)
      }
    }
    for (const key of ["runs", "maxCalls"]) {
      const count = record[key]
      if (count !== undefined && !(Number.isInteger(count) && (count as number) >= 1)) {
        this.problem([key], `must be a whole number of at least 1, not ${describe(count)}`)
      }
    }
    this.budget(record, [])
    if (record["agent"] !== undefined && !isText(record["agent"])) {
      this.problem(
        ["agent"],
        `must be the name of an opencode agent (a non-empty string), not ${describe(record["agent"])}`,
      )
    }
    if (record["results"] !== undefined) {
      const results = this.object(record["results"], ["results"], "must map tool ids to the text a call returns")
      for (const [tool, result] of Object.entries(results ?? {})) {
        this.tools.push({ path: ["results", tool], tool })
        if (typeof result !== "string") {
          this.problem(["results", tool], `must be the text the call returns (a string), not ${describe(result)}`)
        }
      }
    }
    const execute = record["execute"]
    if (execute !== undefined && typeof execute !== "boolean") {
      const tools = this.array(execute, ["execute"], "true, false or a list of tool ids to run for real")
      for (const [index, tool] of (tools ?? []).entries()) {
        if (isText(tool)) this.tools.push({ path: ["execute", index], tool })
        else this.problem(["execute", index], `must be a tool id, not ${describe(tool)}`)
      }
    }
  }

  /** `maxTokens` and `maxMs`: whole numbers of at least 1; `maxCost`: a number of dollars above 0. */
  budget(record: Record<string, unknown>, path: KeyPath): void {
    for (const key of ["maxTokens", "maxMs"]) {
      const value = record[key]
      if (value !== undefined && !(Number.isInteger(value) && (value as number) >= 1)) {
        const unit = key === "maxMs" ? "milliseconds" : "tokens"
        this.problem([...path, key], `must be a whole number of ${unit} of at least 1, not ${describe(value)}`)
      }
    }
    const cost = record["maxCost"]
    if (cost !== undefined && !(typeof cost === "number" && Number.isFinite(cost) && cost > 0)) {
      this.problem([...path, "maxCost"], `must be a cost in USD above 0 (0.05), not ${describe(cost)}`)
    }
  }

  expectation(value: unknown, path: KeyPath): void {
    const record = this.object(value, path, "must be an object ({ calls, ordered, notCalled })")
    if (!record) return
    this.keys(record, path, EXPECT_KEYS)
    if (record["calls"] !== undefined) {
      const calls = this.array(record["calls"], [...path, "calls"], "a list of expected calls ({ tool, args })")
      for (const [index, call] of (calls ?? []).entries()) {
        const callPath = [...path, "calls", index]
        const callRecord = this.object(
          call,
          callPath,
          'an expected call must be an object ({ "tool": "weather", "args": {...} })',
        )
        if (!callRecord) continue
        this.keys(callRecord, callPath, CALL_KEYS)
        if (this.requiredText(callRecord, callPath, "tool")) {
          this.tools.push({ path: [...callPath, "tool"], tool: callRecord["tool"] as string })
        }
        if (callRecord["args"] !== undefined) this.args(callRecord["args"], [...callPath, "args"])
      }
    }
    if (record["ordered"] !== undefined && typeof record["ordered"] !== "boolean") {
      this.problem([...path, "ordered"], `must be true or false, not ${describe(record["ordered"])}`)
    }
    if (record["notCalled"] !== undefined) {
      const tools = this.array(
        record["notCalled"],
        [...path, "notCalled"],
        'a list of tool ids ("*": any tool not expected)',
      )
      for (const [index, tool] of (tools ?? []).entries()) {
        if (!isText(tool))
          this.problem([...path, "notCalled", index], `must be a tool id or "*", not ${describe(tool)}`)
        else if (tool !== "*") this.tools.push({ path: [...path, "notCalled", index], tool })
      }
    }
  }

  args(value: unknown, path: KeyPath): void {
    if (typeof value === "function") return
    const record = this.object(value, path, "must be an object of argument matchers, or a predicate function")
    if (!record) return
    // The arguments as a whole may be matched exactly ({ "$exact": { "city": "Paris" } }: no other
    // argument); any other matcher stands for one value, not for the arguments.
    const exact = Object.keys(record).length === 1 ? record["$exact"] : undefined
    if (isMatcherObject(record) && !(typeof exact === "object" && exact !== null && !Array.isArray(exact))) {
      this.problem(
        path,
        `matches one value; args must be an object of arguments ({ "city": ... }), or { "$exact": { ... } } for exactly those`,
      )
      return
    }
    this.matcher(record, path)
  }

  matcher(value: unknown, path: KeyPath): void {
    if (value === null || typeof value === "string" || typeof value === "boolean" || typeof value === "function") return
    if (value instanceof RegExp) return
    if (typeof value === "number") {
      if (!Number.isFinite(value)) this.problem(path, `${value} is not a JSON number; use a predicate to match it`)
      return
    }
    if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) this.matcher(item, [...path, index])
      return
    }
    if (!isPlainObject(value)) {
      this.problem(
        path,
        `${describe(value)} is not a matcher (use a JSON value, a RegExp, a predicate, or { "$regex" | "$exact" | "$any" })`,
      )
      return
    }
    const record = value as Record<string, unknown>
    const special = Object.keys(record).filter((key) => key.startsWith("$"))
    if (special.length === 0) {
      for (const [key, matcher] of Object.entries(record)) this.matcher(matcher, [...path, key])
      return
    }
    const unknown = special.filter((key) => !MATCHER_KEYS.includes(key))
    for (const key of unknown) {
      this.problem(
        [...path, key],
        `unknown matcher "${key}"${didYouMean(key, MATCHER_KEYS) || ` (matchers: ${MATCHER_KEYS.join(", ")})`}`,
      )
    }
    if (unknown.length > 0) return
    const keys = Object.keys(record)
    if (keys.includes("$regex")) {
      this.regex(record, path)
      return
    }
    if (keys.includes("$flags")) {
      this.problem([...path, "$flags"], `"$flags" goes with "$regex"`)
      return
    }
    if (keys.length > 1) {
      const named = keys.filter((key) => key.startsWith("$")).map((key) => `"${key}"`)
      this.problem(path, `${named.join(", ")} must be the only key of its object`)
      return
    }
    if (keys[0] === "$any" && record["$any"] !== true)
      this.problem([...path, "$any"], `must be true, not ${describe(record["$any"])}`)
  }

  regex(record: Record<string, unknown>, path: KeyPath): void {
    const extra = Object.keys(record).filter((key) => key !== "$regex" && key !== "$flags")
    if (extra.length > 0) {
      this.problem(path, `"$regex" takes only "$flags" beside it, not ${extra.map((key) => `"${key}"`).join(", ")}`)
    }
    const pattern = record["$regex"]
    const flags = record["$flags"] ?? ""
    if (typeof pattern !== "string") {
      this.problem([...path, "$regex"], `must be a regular expression as a string, not ${describe(pattern)}`)
    } else if (typeof flags !== "string" || !REGEX_FLAGS.test(flags)) {
      this.problem([...path, "$flags"], `must be regular expression flags such as "i", not ${describe(flags)}`)
    } else {
      try {
        new RegExp(pattern, flags)
      } catch (error) {
        this.problem(path, `"$regex" is not a valid regular expression (${regexError(error)})`)
      }
    }
  }

  keys(record: Record<string, unknown>, path: KeyPath, known: string[], report = (_key: string) => true): void {
    for (const key of Object.keys(record)) {
      if (known.includes(key) || !report(key)) continue
      const allowed = known.filter((name) => name !== NOTE_KEY)
      this.problem(
        [...path, key],
        `unknown key "${key}"${didYouMean(key, allowed) || ` (allowed: ${allowed.join(", ")})`}`,
      )
    }
  }

  requiredText(record: Record<string, unknown>, path: KeyPath, key: string): boolean {
    const value = record[key]
    if (isText(value)) return true
    if (value === undefined) this.problem(path, `"${key}" is missing`)
    else this.problem([...path, key], `must be a non-empty string, not ${describe(value)}`)
    return false
  }

  object(value: unknown, path: KeyPath, expected: string): Record<string, unknown> | undefined {
    if (isPlainObject(value)) return value as Record<string, unknown>
    this.problem(path, `${expected}, not ${describe(value)}`)
    return undefined
  }

  array(value: unknown, path: KeyPath, expected: string): unknown[] | undefined {
    if (Array.isArray(value)) return value
    this.problem(path, `must be ${expected}, not ${describe(value)}`)
    return undefined
  }

  problem(path: KeyPath, message: string): void {
    this.problems.push({ path, message })
  }
}

function hasControlCharacter(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (code < 0x20 || code === 0x7f) return true
  }
  return false
}

function isText(value: unknown): value is string {
  return typeof value === "string" && value.trim() !== ""
}

function isPlainObject(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false
  const prototype = Object.getPrototypeOf(value)
  return prototype === null || prototype === Object.prototype || Object.getPrototypeOf(prototype) === null
}

function isMatcherObject(record: Record<string, unknown>): boolean {
  const keys = Object.keys(record)
  return keys.length > 0 && keys.every((key) => MATCHER_KEYS.includes(key))
}

/** What a value is, for "must be X, not Y": `a number (3)`, `an array`, `null`. */
function describe(value: unknown): string {
  if (value === null) return "null"
  if (value === undefined) return "undefined"
  if (Array.isArray(value)) return "an array"
  if (value instanceof Date) return "a Date"
  if (typeof value === "string")
    return value.trim() === "" ? "an empty string" : `a string (${JSON.stringify(value.slice(0, 40))})`
  if (typeof value === "number") return `a number (${value})`
  if (typeof value === "boolean") return `${value}`
  if (typeof value === "object") {
    const name = (Object.getPrototypeOf(value) as { constructor?: { name?: string } } | null)?.constructor?.name
    return isPlainObject(value) ? "an object" : `a ${name || "non-plain object"}`
  }
  return `a ${typeof value}`
}

/** V8 says "Invalid regular expression: /(/: Unterminated group"; the last part is the reason. */
function regexError(error: unknown): string {
  const message = messageOfThrown(error)
  const match = /^Invalid regular expression: \/.*\/[a-z]*: (.+)$/s.exec(message)
  return match ? match[1]! : message
}
