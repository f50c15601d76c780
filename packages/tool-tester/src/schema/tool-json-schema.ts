// The JSON Schema opencode 1.18.34 sends to the model for a custom or plugin tool's `args`
// (docs/opencode-contract.md#json-schema). Zod does the conversion: we only reproduce
// how opencode calls it and what it changes afterwards, so the output matches byte for byte.
import { z } from "zod"
import { isRecord } from "../_is-record.ts"
import { messageOfThrown, type Result, ToolTesterError } from "../errors.ts"
import { collectZodMetadata } from "./_zod-metadata.ts"

/** A zod 4 schema from any copy of zod, recognised by its `_zod` key (zod 3 schemas have none). */
export type ZodSchemaLike = { _zod: unknown }

/** True for a zod 4 schema from any copy of zod. Zod 3 schemas are not zod schemas to opencode. */
export function isZodSchema(value: unknown): value is ZodSchemaLike {
  try {
    return typeof value === "object" && value !== null && "_zod" in value
  } catch {
    // A Proxy whose traps throw is no schema.
    return false
  }
}

/**
 * Build the JSON Schema opencode sends for a tool's `args`.
 *
 * When every arg is a zod 4 schema, opencode wraps them in `z.object()` with its own zod (4.1.8)
 * and converts that with `z.toJSONSchema(…, { io: "input" })`, keeping descriptions and metadata
 * set with any zod copy. Otherwise it takes the args as raw JSON Schema fragments.
 * Args that are not an object (a string, a number, an array) are read as opencode reads them, with
 * `Object.entries` (docs/opencode-contract.md#args-that-are-not-a-shape).
 * Fails with `SCHEMA_UNREPRESENTABLE` where zod throws (z.date(), z.bigint(), …): opencode then
 * offers no tool at all to the model.
 */
export function toolJsonSchema(args: unknown): Result<Record<string, unknown>> {
  const shape = args ?? {}
  let entries: [string, unknown][]
  try {
    entries = Object.entries(shape)
  } catch (error) {
    // A Proxy whose traps throw, a getter that throws: opencode cannot read it either.
    const why = messageOfThrown(error)
    return {
      success: false,
      error: new ToolTesterError(
        "SCHEMA_UNREPRESENTABLE",
        `reading its args threw ${why}: opencode fails to build its tool list, so the model is offered no tool at all; make args a plain object of zod types`,
        { data: {} },
      ),
    }
  }
  if (!entries.every(([, value]) => isZodSchema(value))) return { success: true, value: legacySchema(entries) }

  try {
    return { success: true, value: zodObjectSchema(shape) }
  } catch (error) {
    return { success: false, error: unrepresentableError(error, shape) }
  }
}

// --- internal ---

/** Args that are not all zod: entries that look like JSON Schema fragments, passed verbatim. */
function legacySchema(entries: [string, unknown][]): Record<string, unknown> {
  const properties: Record<string, unknown> = {}
  for (const [key, value] of entries) {
    if (typeof value === "boolean" || isRecord(value)) properties[key] = value
  }
  return { type: "object", properties, required: Object.keys(properties) }
}

function zodObjectSchema(shape: object): Record<string, unknown> {
  const object = z.object(shape as z.ZodRawShape)
  const converted: unknown = z.toJSONSchema(object, { io: "input", metadata: collectZodMetadata(object) })
  if (!isRecord(converted)) throw new Error("plugin tool Zod schema produced a non-object JSON Schema")

  const normalized = dropBooleanExclusiveBounds(converted) as Record<string, unknown>
  if (!("$defs" in normalized)) return normalized
  // opencode renames the key only: the `#/$defs/…` references inside keep pointing at `$defs`.
  const { $defs, ...rest } = normalized
  return { ...rest, definitions: $defs }
}

/** Draft-4 style `exclusiveMinimum: true` has no meaning in draft 2020-12: opencode deletes it. */
function dropBooleanExclusiveBounds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropBooleanExclusiveBounds)
  if (!isRecord(value)) return value
  const result: Record<string, unknown> = {}
  for (const [key, child] of Object.entries(value)) {
    const isBooleanBound = (key === "exclusiveMinimum" || key === "exclusiveMaximum") && typeof child === "boolean"
    if (!isBooleanBound) result[key] = dropBooleanExclusiveBounds(child)
  }
  return result
}

const adviceByProblem: [prefix: string, advice: string][] = [
  ["Date ", "use z.string() with a date format instead, such as z.iso.datetime() or z.iso.date()"],
  ["BigInt", "use z.number().int() or a z.string() of digits instead"],
  ["Undefined", "use .optional() on another type instead of z.undefined()"],
  ["Void", "use .optional() on another type instead of z.void()"],
  ["Symbols", "use z.string() instead"],
  ["Map ", "use z.record() instead"],
  ["Set ", "use z.array() instead"],
  ["NaN", "use z.number() instead"],
  ["Custom types", "use a built-in zod type instead of z.custom() or z.instanceof()"],
  ["Function types", "arguments come from JSON: use a JSON-compatible zod type instead"],
  ["Literal `undefined`", "use .optional() instead of a literal undefined"],
]

function unrepresentableError(error: unknown, shape: object): ToolTesterError {
  const zodMessage = isRecord(error) && typeof error.message === "string" ? error.message : String(error)
  const key = findFailingKey(shape)
  const advice =
    adviceByProblem.find(([prefix]) => zodMessage.startsWith(prefix))?.[1] ??
    "use types that JSON Schema can express (strings, numbers, booleans, objects, arrays)"
  const where = key === undefined ? "" : ` (argument "${key}")`
  return new ToolTesterError(
    "SCHEMA_UNREPRESENTABLE",
    `${zodMessage}${where}: opencode fails to build its tool list, so the model is offered no tool at all; ${advice}`,
    { data: key === undefined ? {} : { key }, cause: error },
  )
}

/** Zod's error names the type but not the arg: convert each arg alone to find the first that fails. */
function findFailingKey(shape: object): string | undefined {
  for (const [key, value] of Object.entries(shape)) {
    try {
      const single = z.object({ [key]: value } as z.ZodRawShape)
      z.toJSONSchema(single, { io: "input", metadata: collectZodMetadata(single) })
    } catch {
      return key
    }
  }
  return undefined
}
