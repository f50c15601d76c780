// Every expected string below is what opencode 1.18.34 sent to the model
// (docs/opencode-contract.md#json-schema, re-checked against the binary), compared with
// JSON.stringify so key order counts.
import { readFileSync } from "node:fs"
import path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { describe, expect, test } from "vitest"
import { z } from "zod"
import * as zod3 from "zod3"
import { z as otherZod } from "zod3/v4"
import { ToolTesterError } from "../../src/errors.ts"
import { isZodSchema, toolJsonSchema } from "../../src/schema/tool-json-schema.ts"
import type { ObservedSet } from "../../src/verify/observed-run.ts"

const draft = '"$schema":"https://json-schema.org/draft/2020-12/schema"'

describe("toolJsonSchema() with zod args", () => {
  test("zero args give an object schema with empty properties and no required list", () => {
    expect(schemaText({})).toBe(`{${draft},"type":"object","properties":{}}`)
  })

  test("missing args are treated as zero args", () => {
    expect(schemaText(undefined)).toBe(`{${draft},"type":"object","properties":{}}`)
    expect(schemaText(null)).toBe(`{${draft},"type":"object","properties":{}}`)
  })

  test("the top level has $schema, type, properties and required, and no additionalProperties", () => {
    const args = { name: z.string(), count: z.number().optional() }
    expect(schemaText(args)).toBe(
      `{${draft},"type":"object","properties":{"name":{"type":"string"},"count":{"type":"number"}},"required":["name"]}`,
    )
  })

  // [sentence, schema, property as sent, listed in required]
  const properties: [string, z.ZodType, string, boolean][] = [
    ["a string is a string", z.string(), '{"type":"string"}', true],
    ["a number is a number", z.number(), '{"type":"number"}', true],
    ["a boolean is a boolean", z.boolean(), '{"type":"boolean"}', true],
    [
      "an int gets zod's safe integer bounds",
      z.number().int(),
      '{"type":"integer","minimum":-9007199254740991,"maximum":9007199254740991}',
      true,
    ],
    [
      "an int with a minimum keeps the safe maximum",
      z.number().int().min(1),
      '{"type":"integer","minimum":1,"maximum":9007199254740991}',
      true,
    ],
    ["an optional arg is its inner schema and not required", z.string().optional(), '{"type":"string"}', false],
    ["a nullable arg is an anyOf with null and stays required", z.string().nullable(), nullableString(), true],
    [
      "an optional nullable arg is an anyOf with null and not required",
      z.string().optional().nullable(),
      nullableString(),
      false,
    ],
    ["a nullish arg is an anyOf with null and not required", z.string().nullish(), nullableString(), false],
    [
      "a default is emitted before the type and is not required",
      z.number().default(5),
      '{"default":5,"type":"number"}',
      false,
    ],
    [
      "a described default puts the description first",
      z.string().default("x").describe("has default"),
      '{"description":"has default","default":"x","type":"string"}',
      false,
    ],
    [
      "a description set before .optional() comes first",
      z.string().describe("t").optional(),
      '{"description":"t","type":"string"}',
      false,
    ],
    [
      "a description set after .optional() comes first",
      z.string().optional().describe("t"),
      '{"description":"t","type":"string"}',
      false,
    ],
    [
      "descriptions inside arrays are kept",
      z.array(z.string().describe("item")).describe("list"),
      '{"description":"list","type":"array","items":{"description":"item","type":"string"}}',
      true,
    ],
    [
      "meta title and examples come before the type",
      z.string().meta({ title: "Meta title", examples: ["ex1"] }),
      '{"title":"Meta title","examples":["ex1"],"type":"string"}',
      true,
    ],
    [
      "meta after describe keeps the description first",
      z.string().describe("first").meta({ title: "then" }),
      '{"description":"first","title":"then","type":"string"}',
      true,
    ],
    [
      "describe after meta keeps the title first",
      z.string().meta({ title: "then" }).describe("first"),
      '{"title":"then","description":"first","type":"string"}',
      true,
    ],
    ["an enum of values has the type first", z.enum(["a", "b", "c"]), '{"type":"string","enum":["a","b","c"]}', true],
    ["an enum from an object lists its values", z.enum({ A: "a", B: "b" }), '{"type":"string","enum":["a","b"]}', true],
    ["a string literal is a const", z.literal("fixed"), '{"type":"string","const":"fixed"}', true],
    ["a number literal is a const", z.literal(3), '{"type":"number","const":3}', true],
    ["a literal of several values is an enum", z.literal([1, 2, 3]), '{"type":"number","enum":[1,2,3]}', true],
    ["a union is an anyOf", z.union([z.string(), z.number()]), '{"anyOf":[{"type":"string"},{"type":"number"}]}', true],
    [
      "a union with null has a null branch",
      z.union([z.string(), z.number(), z.null()]),
      '{"anyOf":[{"type":"string"},{"type":"number"},{"type":"null"}]}',
      true,
    ],
    [
      "a union of literals is an anyOf of consts",
      z.union([z.literal(1), z.literal(2)]),
      '{"anyOf":[{"type":"number","const":1},{"type":"number","const":2}]}',
      true,
    ],
    [
      "a discriminated union is an anyOf of objects",
      z.discriminatedUnion("kind", [z.object({ kind: z.literal("a") }), z.object({ kind: z.literal("b") })]),
      '{"anyOf":[{"type":"object","properties":{"kind":{"type":"string","const":"a"}},"required":["kind"]},{"type":"object","properties":{"kind":{"type":"string","const":"b"}},"required":["kind"]}]}',
      true,
    ],
    [
      "an intersection is an allOf",
      z.intersection(z.object({ a: z.string() }), z.object({ b: z.number() })),
      '{"allOf":[{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]},{"type":"object","properties":{"b":{"type":"number"}},"required":["b"]}]}',
      true,
    ],
    ["an array has items", z.array(z.string()), '{"type":"array","items":{"type":"string"}}', true],
    [
      "array bounds come before the type",
      z.array(z.string()).min(1).max(3),
      '{"minItems":1,"maxItems":3,"type":"array","items":{"type":"string"}}',
      true,
    ],
    [
      "a nested object has no additionalProperties",
      z.object({ x: z.number(), y: z.string().optional() }),
      '{"type":"object","properties":{"x":{"type":"number"},"y":{"type":"string"}},"required":["x"]}',
      true,
    ],
    [
      "a strict object forbids additional properties",
      z.object({ x: z.number() }).strict(),
      '{"type":"object","properties":{"x":{"type":"number"}},"required":["x"],"additionalProperties":false}',
      true,
    ],
    [
      "a passthrough object allows any additional property",
      z.object({ x: z.number() }).passthrough(),
      '{"type":"object","properties":{"x":{"type":"number"}},"required":["x"],"additionalProperties":{}}',
      true,
    ],
    [
      "a record has propertyNames and additionalProperties",
      z.record(z.string(), z.number()),
      '{"type":"object","propertyNames":{"type":"string"},"additionalProperties":{"type":"number"}}',
      true,
    ],
    [
      "a tuple uses prefixItems",
      z.tuple([z.string(), z.number()]),
      '{"type":"array","prefixItems":[{"type":"string"},{"type":"number"}]}',
      true,
    ],
    [
      "string min and max are lengths",
      z.string().min(2).max(10),
      '{"type":"string","minLength":2,"maxLength":10}',
      true,
    ],
    ["a string length sets both lengths", z.string().length(4), '{"type":"string","minLength":4,"maxLength":4}', true],
    ["a regex is a pattern", z.string().regex(/^[a-z]+$/), '{"type":"string","pattern":"^[a-z]+$"}', true],
    [
      "an email has a format and zod's email pattern",
      z.string().email(),
      String.raw`{"type":"string","format":"email","pattern":"^(?!\\.)(?!.*\\.\\.)([A-Za-z0-9_'+\\-\\.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9\\-]*\\.)+[A-Za-z]{2,}$"}`,
      true,
    ],
    ["a url is a uri format without a pattern", z.string().url(), '{"type":"string","format":"uri"}', true],
    [
      "a uuid has a format and a pattern",
      z.string().uuid(),
      '{"type":"string","format":"uuid","pattern":"^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$"}',
      true,
    ],
    [
      "number min and max are inclusive bounds",
      z.number().min(0).max(100),
      '{"type":"number","minimum":0,"maximum":100}',
      true,
    ],
    [
      "gt and lt are numeric exclusive bounds, which are kept",
      z.number().gt(0).lt(1),
      '{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":1}',
      true,
    ],
    ["positive is an exclusive minimum of 0", z.number().positive(), '{"type":"number","exclusiveMinimum":0}', true],
    ["multipleOf is kept", z.number().multipleOf(5), '{"type":"number","multipleOf":5}', true],
    ["any is an empty schema and still required", z.any(), "{}", true],
    ["unknown is an empty schema and still required", z.unknown(), "{}", true],
    ["a described any keeps only its description", z.any().describe("anything"), '{"description":"anything"}', true],
    ["a coerced number is a number", z.coerce.number(), '{"type":"number"}', true],
    ["a transform shows its input side", z.string().transform((text) => text.length), '{"type":"string"}', true],
    ["a refinement leaves no trace", z.string().refine(() => true), '{"type":"string"}', true],
    ["trim leaves a plain string", z.string().trim(), '{"type":"string"}', true],
  ]

  test.each(properties)("%s", (_sentence, schema, expected, required) => {
    const value = schemaValue({ arg: schema })
    expect(JSON.stringify((value.properties as Record<string, unknown>).arg)).toBe(expected)
    expect(value.required).toEqual(required ? ["arg"] : undefined)
  })

  test("recursive lazy schemas keep refs to $defs while the definitions move to a top-level definitions key", () => {
    const tree: z.ZodType = z.lazy(() => z.object({ value: z.number(), children: z.array(tree) }))
    expect(schemaText({ tree, described: tree.describe("a tree") })).toBe(
      `{${draft},"type":"object","properties":{"tree":{"$ref":"#/$defs/__schema0"},"described":{"description":"a tree","$ref":"#/$defs/__schema0"}},"required":["tree","described"],"definitions":{"__schema0":{"type":"object","properties":{"value":{"type":"number"},"children":{"type":"array","items":{"$ref":"#/$defs/__schema0"}}},"required":["value","children"]}}}`,
    )
  })

  test("recursive getter schemas dangle the same way and keep descriptions inside the shape", () => {
    const node = z.object({
      name: z.string().describe("node name"),
      get children() {
        return z.array(node)
      },
    })
    expect(schemaText({ node })).toBe(
      `{${draft},"type":"object","properties":{"node":{"$ref":"#/$defs/__schema0"}},"required":["node"],"definitions":{"__schema0":{"type":"object","properties":{"name":{"description":"node name","type":"string"},"children":{"type":"array","items":{"$ref":"#/$defs/__schema0"}}},"required":["name","children"]}}}`,
    )
  })

  test("descriptions inside a lazy schema are lost, because opencode only walks _zod.def", () => {
    const tree: z.ZodType = z.lazy(() => z.object({ value: z.number().describe("inner value") }))
    expect(JSON.stringify(schemaValue({ tree }).properties)).toBe(
      '{"tree":{"type":"object","properties":{"value":{"type":"number"}},"required":["value"]}}',
    )
  })

  test("meta ids become definitions, and the id stays inside each definition", () => {
    const point = z.object({ x: z.number() }).meta({ id: "Point" })
    expect(schemaText({ a: point, b: point.optional() })).toBe(
      `{${draft},"type":"object","properties":{"a":{"$ref":"#/$defs/Point"},"b":{"$ref":"#/$defs/Point"}},"required":["a"],"definitions":{"Point":{"id":"Point","type":"object","properties":{"x":{"type":"number"}},"required":["x"]}}}`,
    )
  })

  test("boolean exclusive bounds are deleted at any depth, numeric ones are kept", () => {
    const args = {
      n: z.number().gt(1).meta({ exclusiveMaximum: true }),
      o: z.object({ m: z.number().meta({ exclusiveMinimum: false, exclusiveMaximum: 3 }) }),
    }
    expect(JSON.stringify(schemaValue(args).properties)).toBe(
      '{"n":{"type":"number","exclusiveMinimum":1},"o":{"type":"object","properties":{"m":{"exclusiveMaximum":3,"type":"number"}},"required":["m"]}}',
    )
  })

  test("non-object args that have no entries are treated as zero zod args, like opencode", () => {
    expect(schemaText(5)).toBe(`{${draft},"type":"object","properties":{}}`)
  })

  test("an array of zod schemas becomes an object keyed by index, like opencode", () => {
    expect(schemaText([z.string()])).toBe(
      `{${draft},"type":"object","properties":{"0":{"type":"string"}},"required":["0"]}`,
    )
  })
})

describe("toolJsonSchema() with schemas from another zod copy", () => {
  test("zod3/v4 is really a separate zod 4 instance", () => {
    expect(otherZod.string).not.toBe(z.string)
    expect(otherZod.globalRegistry).not.toBe(z.globalRegistry)
    expect(otherZod.string()._zod.version).toEqual({ major: 4, minor: 0, patch: 0 })
    expect(z.string()._zod.version).toEqual({ major: 4, minor: 1, patch: 8 })
  })

  test("descriptions and meta set with another zod 4 copy are kept", () => {
    const other = otherZod.object({ n: otherZod.number().describe("other num").meta({ title: "OT" }) })
    const args = { other: other.describe("other outer"), list: otherZod.array(otherZod.string().describe("item")) }
    expect(JSON.stringify(schemaValue(args).properties)).toBe(
      '{"other":{"description":"other outer","type":"object","properties":{"n":{"description":"other num","title":"OT","type":"number"}},"required":["n"]},"list":{"type":"array","items":{"description":"item","type":"string"}}}',
    )
  })

  test("the host zod alone would lose those descriptions, which is why the registry walk exists", () => {
    const args = { n: otherZod.number().describe("other num") }
    const direct = z.toJSONSchema(z.object(args as unknown as z.ZodRawShape), { io: "input" })
    expect(JSON.stringify(direct.properties)).toBe('{"n":{"type":"number"}}')
    expect(JSON.stringify(schemaValue(args).properties)).toBe('{"n":{"description":"other num","type":"number"}}')
  })

  test("args mixing both zod 4 copies are converted together", () => {
    const args = { a: z.string().describe("host"), b: otherZod.number().describe("other").optional() }
    expect(schemaText(args)).toBe(
      `{${draft},"type":"object","properties":{"a":{"description":"host","type":"string"},"b":{"description":"other","type":"number"}},"required":["a"]}`,
    )
  })

  test("meta ids from another copy become definitions too", () => {
    const other = otherZod.object({ y: otherZod.string() }).meta({ id: "Other", title: "O" })
    expect(JSON.stringify(schemaValue({ c: other }).definitions)).toBe(
      '{"Other":{"id":"Other","title":"O","type":"object","properties":{"y":{"type":"string"}},"required":["y"]}}',
    )
  })

  test("zod 3 schemas are not zod to opencode: they take the legacy path and are passed verbatim", () => {
    const a = zod3.z.string().describe("x")
    const n = zod3.z.number()
    const value = schemaValue({ a, n })
    expect(value).toEqual({ type: "object", properties: { a, n }, required: ["a", "n"] })
    expect((value.properties as Record<string, unknown>).a).toBe(a)
  })
})

describe("toolJsonSchema() with non-zod args (the legacy path)", () => {
  test("booleans and non-array objects are kept verbatim and all listed as required, without $schema", () => {
    const args = {
      flag: true,
      off: false,
      text: "dropped",
      list: [1],
      nothing: null,
      run: () => 1,
      raw: { type: "string" },
    }
    expect(schemaText(args)).toBe(
      '{"type":"object","properties":{"flag":true,"off":false,"raw":{"type":"string"}},"required":["flag","off","raw"]}',
    )
  })

  test("one non-zod value sends the zod values through verbatim too", () => {
    const name = z.string()
    const value = schemaValue({ name, flag: true })
    expect((value.properties as Record<string, unknown>).name).toBe(name)
    expect(value.required).toEqual(["name", "flag"])
  })

  test("string args have only non-schema entries, so the schema is empty with an empty required list", () => {
    expect(schemaText("ab")).toBe('{"type":"object","properties":{},"required":[]}')
  })
})

// The probe project's own tool files against what opencode 1.18.34 sent for them (the recorded
// args-shapes golden; docs/opencode-contract.md#args-that-are-not-a-shape): args that is a string,
// an empty string, null, undefined, a number, a boolean, an array, a zod schema, zod next to JSON
// Schema, a whole JSON Schema.
describe("toolJsonSchema() on args that are not a shape, as opencode sent them", () => {
  const here = path.dirname(fileURLToPath(import.meta.url))
  const golden: ObservedSet = JSON.parse(readFileSync(path.join(here, "..", "golden", "args-shapes.json"), "utf8"))
  const tools = path.join(here, "..", "..", "probes", "args-shapes", ".opencode", "tools")
  const sent = golden.runs[0]!.tools!.map(
    (entry) => (entry as { function: { name: string; parameters: unknown } }).function,
  )
  const custom = sent.filter((entry) => entry.name.startsWith("args_"))

  test("every odd args of the probe was offered", () => {
    expect(custom.map((entry) => entry.name)).toEqual([
      "args_array",
      "args_boolean",
      "args_empty_string",
      "args_json_schema",
      "args_mixed",
      "args_null",
      "args_number",
      "args_string",
      "args_undefined",
      "args_zod_object",
      "args_zod_string",
    ])
  })

  test.each(custom.map((entry) => [entry.name, entry.parameters] as const))("%s", async (name, parameters) => {
    const module = (await import(pathToFileURL(path.join(tools, `${name}.ts`)).href)) as { default: { args: unknown } }
    expect(JSON.stringify(schemaValue(module.default.args))).toBe(JSON.stringify(parameters))
  })
})

describe("toolJsonSchema() failures", () => {
  test("z.date() fails with SCHEMA_UNREPRESENTABLE naming the arg, zod's message and what to do", () => {
    const result = toolJsonSchema({ ok: z.string(), when: z.date() })
    if (result.success) throw new Error("expected a failure")
    expect(ToolTesterError.isInstance(result.error)).toBe(true)
    expect(result.error.code).toBe("SCHEMA_UNREPRESENTABLE")
    expect(result.error.data).toEqual({ key: "when" })
    expect(result.error.message).toContain("Date cannot be represented in JSON Schema")
    expect(result.error.message).toContain('"when"')
    expect(result.error.message).toContain("opencode fails to build its tool list")
    expect(result.error.message).toContain("use z.string() with a date format instead")
    expect(result.error.message).not.toContain("\n")
  })

  test("z.bigint() fails with SCHEMA_UNREPRESENTABLE and suggests a number or a string", () => {
    const result = toolJsonSchema({ big: z.bigint().optional() })
    if (result.success) throw new Error("expected a failure")
    expect(result.error.code).toBe("SCHEMA_UNREPRESENTABLE")
    expect(result.error.data).toEqual({ key: "big" })
    expect(result.error.message).toMatch(/^BigInt cannot be represented in JSON Schema \(argument "big"\): .*; use /)
  })

  test("an unrepresentable type nested in an object names the top-level arg", () => {
    const result = toolJsonSchema({ outer: z.object({ inner: z.map(z.string(), z.number()) }) })
    if (result.success) throw new Error("expected a failure")
    expect(result.error.data).toEqual({ key: "outer" })
    expect(result.error.message).toContain("Map cannot be represented in JSON Schema")
    expect(result.error.message).toContain("use z.record() instead")
  })

  test("the zod error is kept as the cause", () => {
    const result = toolJsonSchema({ when: z.date() })
    if (result.success) throw new Error("expected a failure")
    expect((result.error.cause as Error).message).toBe("Date cannot be represented in JSON Schema")
  })
})

describe("isZodSchema()", () => {
  test("recognises zod 4 schemas from any copy by shape", () => {
    expect(isZodSchema(z.string())).toBe(true)
    expect(isZodSchema(otherZod.string())).toBe(true)
  })

  test("rejects zod 3 schemas, plain objects and primitives", () => {
    expect(isZodSchema(zod3.z.string())).toBe(false)
    expect(isZodSchema({ type: "string" })).toBe(false)
    expect(isZodSchema(null)).toBe(false)
    expect(isZodSchema("_zod")).toBe(false)
  })
})

// --- internal ---

function schemaValue(args: unknown): Record<string, unknown> {
  const result = toolJsonSchema(args)
  if (!result.success) throw result.error
  return result.value
}

function schemaText(args: unknown): string {
  return JSON.stringify(schemaValue(args))
}

function nullableString(): string {
  return '{"anyOf":[{"type":"string"},{"type":"null"}]}'
}
