// Arguments that fit a tool's JSON Schema (as opencode sends it), as fast-check arbitraries. Covers
// what zod's toJSONSchema produces: types (also as lists), enum/const, anyOf/oneOf/allOf, string
// bounds, patterns and formats, number bounds, arrays and tuples, objects with required keys and
// records, and local $refs (recursion cut at a depth). Call loadFastCheck() first.
import type { Arbitrary } from "fast-check"
import { isRecord } from "../_is-record.ts"
import { resolvePointer } from "../schema/refs.ts"
import { fc } from "./_fast-check.ts"

type Schema = Record<string, unknown>
type Context = { root: unknown; depth: number }

const MAX_DEPTH = 4

export function validArguments(schema: unknown): Arbitrary<unknown> {
  return arbitraryFor(schema, { root: schema, depth: 0 })
}

// --- internal ---

function arbitraryFor(schema: unknown, context: Context): Arbitrary<unknown> {
  if (schema === true || schema === undefined) return fc.jsonValue({ maxDepth: 2 })
  if (schema === false || !isRecord(schema)) return fc.constant(null)
  const deeper = { ...context, depth: context.depth + 1 }
  if (typeof schema["$ref"] === "string") {
    if (context.depth >= MAX_DEPTH) return fc.constant(null)
    const target = resolvePointer(context.root, schema["$ref"])
    return target === undefined ? fc.jsonValue({ maxDepth: 1 }) : arbitraryFor(target, deeper)
  }
  if ("const" in schema) return fc.constant(schema["const"])
  if (Array.isArray(schema["enum"]) && schema["enum"].length > 0) return fc.constantFrom(...schema["enum"])
  for (const key of ["anyOf", "oneOf"]) {
    const options = schema[key]
    if (Array.isArray(options) && options.length > 0)
      return fc.oneof(...options.map((option) => arbitraryFor(option, deeper)))
  }
  if (Array.isArray(schema["allOf"]) && schema["allOf"].length > 0) {
    return arbitraryFor(mergeAllOf(schema["allOf"] as unknown[], context.root), context)
  }
  const type = schema["type"]
  if (Array.isArray(type)) return fc.oneof(...type.map((one) => arbitraryFor({ ...schema, type: one }, context)))
  switch (type) {
    case "string":
      return stringArbitrary(schema)
    case "integer":
      return fc.integer({ min: bound(schema, "min", -1_000_000), max: bound(schema, "max", 1_000_000) })
    case "number":
      return fc.double({
        min: bound(schema, "min", -1_000_000),
        max: bound(schema, "max", 1_000_000),
        noNaN: true,
        noDefaultInfinity: true,
      })
    case "boolean":
      return fc.boolean()
    case "null":
      return fc.constant(null)
    case "array":
      return arrayArbitrary(schema, deeper)
    case "object":
      return objectArbitrary(schema, deeper)
    default:
      if (isRecord(schema["properties"])) return objectArbitrary(schema, deeper)
      return fc.jsonValue({ maxDepth: 2 })
  }
}

function stringArbitrary(schema: Schema): Arbitrary<unknown> {
  const minLength = typeof schema["minLength"] === "number" ? schema["minLength"] : 0
  const maxLength = typeof schema["maxLength"] === "number" ? schema["maxLength"] : Math.max(minLength, 20)
  if (typeof schema["pattern"] === "string") {
    try {
      return fc
        .stringMatching(new RegExp(schema["pattern"]))
        .filter((text) => text.length >= minLength && text.length <= maxLength)
    } catch {
      // A pattern JavaScript cannot compile: fall through to plain strings.
    }
  }
  switch (schema["format"]) {
    case "email":
      return fc.emailAddress()
    case "uri":
    case "url":
      return fc.webUrl()
    case "uuid":
      return fc.uuid()
    case "date-time":
      return fc
        .date({ min: new Date(0), max: new Date(4_102_444_800_000), noInvalidDate: true })
        .map((date) => date.toISOString())
    case "date":
      return fc
        .date({ min: new Date(0), max: new Date(4_102_444_800_000), noInvalidDate: true })
        .map((date) => date.toISOString().slice(0, 10))
    default:
      return fc.string({ minLength, maxLength })
  }
}

function arrayArbitrary(schema: Schema, context: Context): Arbitrary<unknown> {
  const prefix = schema["prefixItems"]
  if (Array.isArray(prefix)) return fc.tuple(...prefix.map((item) => arbitraryFor(item, context)))
  const minLength = typeof schema["minItems"] === "number" ? schema["minItems"] : 0
  const maxLength = typeof schema["maxItems"] === "number" ? schema["maxItems"] : Math.max(minLength, 4)
  return fc.array(arbitraryFor(schema["items"], context), { minLength, maxLength })
}

function objectArbitrary(schema: Schema, context: Context): Arbitrary<unknown> {
  const properties = isRecord(schema["properties"]) ? schema["properties"] : {}
  const required = Array.isArray(schema["required"]) ? (schema["required"] as string[]) : []
  const shape = Object.fromEntries(
    Object.entries(properties).map(([key, value]) => [key, arbitraryFor(value, context)]),
  )
  const known = fc.record(shape, { requiredKeys: required.filter((key) => key in shape) })
  const extra = schema["additionalProperties"]
  if (!isRecord(extra) || Object.keys(properties).length > 0) return known
  // A record (z.record): keys from propertyNames when it is an enum, else short strings.
  const names =
    isRecord(schema["propertyNames"]) && Array.isArray(schema["propertyNames"]["enum"])
      ? fc.constantFrom(...(schema["propertyNames"]["enum"] as string[]))
      : fc.string({ minLength: 1, maxLength: 8 })
  return fc.dictionary(names, arbitraryFor(extra, context), { maxKeys: 4 })
}

function bound(schema: Schema, side: "min" | "max", fallback: number): number {
  const inclusive = schema[side === "min" ? "minimum" : "maximum"]
  const exclusive = schema[side === "min" ? "exclusiveMinimum" : "exclusiveMaximum"]
  const limit = Math.abs(fallback)
  const clamp = (value: number) => Math.max(-limit, Math.min(limit, value))
  if (typeof exclusive === "number") return clamp(side === "min" ? exclusive + 1 : exclusive - 1)
  if (typeof inclusive === "number") return clamp(inclusive)
  return fallback
}

function mergeAllOf(parts: unknown[], root: unknown): Schema {
  const merged: Schema = { type: "object", properties: {}, required: [] }
  for (const part of parts) {
    const resolved = isRecord(part) && typeof part["$ref"] === "string" ? resolvePointer(root, part["$ref"]) : part
    if (!isRecord(resolved)) continue
    Object.assign(merged["properties"] as Schema, isRecord(resolved["properties"]) ? resolved["properties"] : {})
    if (Array.isArray(resolved["required"])) (merged["required"] as unknown[]).push(...resolved["required"])
  }
  return merged
}
