// The arguments models really send, which opencode passes to a custom tool without validating them
// (docs/opencode-contract.md#raw-arguments): valid ones most of the time, and otherwise required
// keys left out, wrong types (numbers as strings, a single value for a list), extra keys, `{}`,
// empty, huge and unusual unicode strings. Objects are fast-check records with no required key, so
// a failure shrinks toward `{}`.
import type { Arbitrary } from "fast-check"
import { isRecord } from "../_is-record.ts"
import { fc } from "./_fast-check.ts"
import { validArguments } from "./valid-arguments.ts"

const HUGE = "x".repeat(100_000)

export function modelArguments(schema: unknown): Arbitrary<unknown> {
  const valid = validArguments(schema)
  if (!isRecord(schema) || !isRecord(schema["properties"])) {
    return fc.oneof({ weight: 4, arbitrary: valid }, { weight: 1, arbitrary: fc.constant({}) })
  }
  const properties = schema["properties"] as Record<string, unknown>
  const sloppy = fc.record(
    Object.fromEntries(
      Object.entries(properties).map(([key, property]) => [
        key,
        fc.oneof(
          { weight: 3, arbitrary: validArguments(property) },
          { weight: 2, arbitrary: wrongType(property) },
          { weight: 1, arbitrary: oddString() },
        ),
      ]),
    ),
    { requiredKeys: [] },
  )
  const withExtraKeys = fc
    .tuple(
      valid,
      fc.dictionary(fc.string({ minLength: 1, maxLength: 10 }), fc.jsonValue({ maxDepth: 1 }), {
        minKeys: 1,
        maxKeys: 2,
      }),
    )
    .map(([args, extra]) => (isRecord(args) ? { ...extra, ...args } : args))
  return fc.oneof(
    { weight: 5, arbitrary: valid },
    { weight: 4, arbitrary: sloppy },
    { weight: 1, arbitrary: withExtraKeys },
    { weight: 1, arbitrary: fc.constant({}) },
  )
}

// --- internal ---

/** A value of another JSON type than the schema asks for, as models send them. */
function wrongType(schema: unknown): Arbitrary<unknown> {
  const type = isRecord(schema) ? schema["type"] : undefined
  switch (type) {
    case "number":
    case "integer":
      return fc.oneof(fc.integer().map(String), fc.constant(""), fc.constant(null))
    case "boolean":
      return fc.constantFrom("true", "false", "yes", 1, 0)
    case "string":
      return fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 2 }))
    case "array":
      return fc.oneof(validArguments(isRecord(schema) ? schema["items"] : undefined), fc.string(), fc.constant(null))
    case "object":
      return fc.oneof(fc.string(), fc.constant(null), fc.constant([]))
    default:
      return fc.oneof(fc.string(), fc.integer(), fc.constant(null))
  }
}

function oddString(): Arbitrary<string> {
  return fc.oneof(
    fc.constant(""),
    fc.constant(" "),
    fc.constant(HUGE),
    fc.string({ unit: "grapheme", maxLength: 8 }),
    fc.string({ unit: "binary", maxLength: 8 }),
  )
}
