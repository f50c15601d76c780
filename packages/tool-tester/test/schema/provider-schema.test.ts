// Every expected string below is what opencode 1.18.34 sent (docs/opencode-contract.md#provider-fixes,
// re-checked by driving the binary with each provider), compared with JSON.stringify so
// key order counts.
import { describe, expect, test } from "vitest"
import { z } from "zod"
import { providerSchema, type SchemaModel, strictFlag } from "../../src/schema/provider-schema.ts"
import { toolJsonSchema } from "../../src/schema/tool-json-schema.ts"

const openai: SchemaModel = { npm: "@ai-sdk/openai", providerID: "openai", modelID: "gpt-probe" }
const azure: SchemaModel = { npm: "@ai-sdk/azure", providerID: "azure", modelID: "probe-az" }
const compatible: SchemaModel = { npm: "@ai-sdk/openai-compatible", providerID: "probe", modelID: "plain" }
const gemini: SchemaModel = { ...compatible, modelID: "my-gemini-probe" }
const kimi: SchemaModel = { ...compatible, modelID: "Kimi-K2-probe" }

describe("providerSchema() for @ai-sdk/openai", () => {
  test("a zod tool keeps only the whitelisted keywords, with type moved last and $schema dropped", () => {
    const tree: z.ZodType = z.lazy(() => z.object({ value: z.number(), children: z.array(tree) }))
    const args = {
      s: z.string(),
      i: z.number().int().min(1).describe("int"),
      d: z.number().default(5),
      m: z.string().meta({ title: "Meta title", examples: ["ex1"] }),
      lit: z.literal("fixed"),
      anyd: z.any().describe("anything"),
      arr: z.array(z.string().describe("item")).min(1).max(3).describe("list"),
      rec: z.record(z.string(), z.number()),
      tup: z.tuple([z.string(), z.number()]),
      email: z.string().email(),
      tree: tree.describe("a tree"),
    }
    expect(sentTool(args, openai)).toBe(
      '{"properties":{"s":{"type":"string"},"i":{"description":"int","type":"integer"},"d":{"type":"number"},"m":{"type":"string"},"lit":{"enum":["fixed"],"type":"string"},"anyd":{},"arr":{"description":"list","items":{"description":"item","type":"string"},"type":"array"},"rec":{"additionalProperties":{"type":"number"},"type":"object","properties":{}},"tup":{"type":"array","items":{"type":"string"}},"email":{"type":"string"},"tree":{"$ref":"#/$defs/__schema0","description":"a tree"}},"required":["s","i","m","lit","anyd","arr","rec","tup","email","tree"],"definitions":{"__schema0":{"properties":{"value":{"type":"number"},"children":{"items":{"$ref":"#/$defs/__schema0"},"type":"array"}},"required":["value","children"],"type":"object"}},"type":"object"}',
    )
  })

  // [sentence, schema fragment, as sent]
  const fragments: [string, unknown, string][] = [
    ["a boolean schema becomes a string", true, '{"type":"string"}'],
    ["an empty schema stays empty", {}, "{}"],
    ["a schema without any type hint loses its description too", { description: "just a description" }, "{}"],
    ["a const becomes a one-value enum", { const: 7, title: "c" }, '{"enum":[7],"type":"string"}'],
    ["a const wins over an enum", { const: 1, enum: [2, 3] }, '{"enum":[1],"type":"string"}'],
    [
      "an enum without a type is a string",
      { description: "ent", enum: ["x", 2] },
      '{"description":"ent","enum":["x",2],"type":"string"}',
    ],
    ["an enum that is not an array hints at nothing", { enum: "x" }, "{}"],
    [
      "a format without a type is a string, and the format goes",
      { format: "date-time", description: "fo" },
      '{"description":"fo","type":"string"}',
    ],
    ["a numeric bound without a type is a number", { minimum: 1 }, '{"type":"number"}'],
    ["multipleOf counts as a numeric bound", { multipleOf: 2 }, '{"type":"number"}'],
    ["string and array bounds do not hint at a type", { minLength: 1 }, "{}"],
    ["items without a type make an array", { items: { type: "string" } }, '{"items":{"type":"string"},"type":"array"}'],
    [
      "prefixItems alone make an array of strings",
      { prefixItems: [{ type: "string" }] },
      '{"type":"array","items":{"type":"string"}}',
    ],
    [
      "an array without items gets string items",
      { type: "array", description: "ani" },
      '{"description":"ani","type":"array","items":{"type":"string"}}',
    ],
    [
      "boolean items become string items",
      { type: "array", items: false },
      '{"items":{"type":"string"},"type":"array"}',
    ],
    [
      "items with only a description become an empty schema",
      { type: "array", items: { description: "only desc" } },
      '{"items":{},"type":"array"}',
    ],
    [
      "tuple-form items stay an array",
      { type: "array", items: [{ type: "string" }, { type: "number" }] },
      '{"items":[{"type":"string"},{"type":"number"}],"type":"array"}',
    ],
    [
      "tuple-form items are sanitised one by one",
      { type: "array", items: [{ type: "array", items: [{ type: "string" }, true] }, { type: "number" }] },
      '{"items":[{"items":[{"type":"string"},{"type":"string"}],"type":"array"},{"type":"number"}],"type":"array"}',
    ],
    [
      "an object without properties gets empty properties",
      { type: "object", description: "onp" },
      '{"description":"onp","type":"object","properties":{}}',
    ],
    [
      "additionalProperties alone make an object",
      { additionalProperties: true },
      '{"additionalProperties":true,"type":"object","properties":{}}',
    ],
    [
      "additionalProperties schemas are sanitised",
      { additionalProperties: { type: "number", minimum: 1 }, description: "ad" },
      '{"description":"ad","additionalProperties":{"type":"number"},"type":"object","properties":{}}',
    ],
    [
      "required keeps only strings",
      { type: "object", properties: { a: { type: "string" } }, required: ["a", "zz", 5] },
      '{"properties":{"a":{"type":"string"}},"required":["a","zz"],"type":"object"}',
    ],
    ["an unknown type name is dropped and nothing else hints at one", { type: "weird", description: "bt" }, "{}"],
    [
      "a type array keeps its known names",
      { type: ["string", "integer", "null"], description: "tam" },
      '{"description":"tam","type":["string","integer","null"]}',
    ],
    ["a type array with one known name becomes that name", { type: ["weird", "string"] }, '{"type":"string"}'],
    [
      "an object type array gets empty properties",
      { type: ["object", "null"] },
      '{"type":["object","null"],"properties":{}}',
    ],
    [
      "an array type array gets string items",
      { type: ["array", "null"] },
      '{"type":["array","null"],"items":{"type":"string"}}',
    ],
    [
      "a $ref keeps only its description",
      { $ref: "#/definitions/x", description: "refdesc", title: "rt" },
      '{"$ref":"#/definitions/x","description":"refdesc"}',
    ],
    [
      "a $ref with a type keeps the type",
      { $ref: "#/x", type: "string", description: "r" },
      '{"$ref":"#/x","description":"r","type":"string"}',
    ],
    [
      "a combiner without a type is returned without one",
      { description: "aont", anyOf: [{ type: "string" }, true] },
      '{"description":"aont","anyOf":[{"type":"string"},{"type":"string"}]}',
    ],
    [
      "other keywords next to a combiner are dropped",
      { oneOf: [{ type: "null" }, { type: "string" }], default: "x" },
      '{"oneOf":[{"type":"null"},{"type":"string"}]}',
    ],
    [
      "definitions are sanitised",
      { type: "object", $defs: { a: { type: "string", format: "x" } }, definitions: { b: true } },
      '{"$defs":{"a":{"type":"string"}},"definitions":{"b":{"type":"string"}},"type":"object","properties":{}}',
    ],
    ["not is dropped", { not: { type: "string" } }, "{}"],
  ]

  test.each(fragments)("%s", (_sentence, fragment, expected) => {
    expect(sentProperty(fragment, openai)).toBe(expected)
  })

  test("@ai-sdk/azure gets the same sanitiser as OpenAI", () => {
    expect(sentProperty({ type: "integer", enum: [1, 2], description: "tf" }, azure)).toBe(
      '{"description":"tf","enum":[1,2],"type":"integer"}',
    )
    expect(sentProperty(true, azure)).toBe('{"type":"string"}')
  })
})

describe("providerSchema() for Gemini models", () => {
  test("a zod tool gets string enums, typed items and tuple items", () => {
    const args = {
      ln: z.literal([1, 2, 3]),
      arrany: z.array(z.any()),
      tup: z.tuple([z.string(), z.number()]),
      l3: z.literal(3),
    }
    expect(JSON.stringify(providerSchema(schemaOf(args), gemini).properties)).toBe(
      '{"ln":{"type":"string","enum":["1","2","3"]},"arrany":{"type":"array","items":{"type":"string"}},"tup":{"type":"array","prefixItems":[{"type":"string"},{"type":"number"}],"items":{"type":"string"}},"l3":{"type":"number","const":3}}',
    )
  })

  test("nullable anyOf, const and definitions are left alone", () => {
    const tree: z.ZodType = z.lazy(() => z.object({ children: z.array(tree) }))
    const schema = schemaOf({ nl: z.string().nullable(), lit: z.literal("fixed"), tree })
    expect(providerSchema(schema, gemini)).toEqual(schema)
  })

  const fragments: [string, unknown, string][] = [
    [
      "a number type before enum becomes a string type",
      { type: "integer", enum: [1, 2], description: "tf" },
      '{"type":"string","enum":["1","2"],"description":"tf"}',
    ],
    [
      "a number type after enum is left as it is",
      { enum: [1, 2], type: "number" },
      '{"enum":["1","2"],"type":"number"}',
    ],
    [
      "every enum value is stringified",
      { type: "string", enum: [null, true, { a: 1 }, 1.5] },
      '{"type":"string","enum":["null","true","[object Object]","1.5"]}',
    ],
    [
      "a type array becomes anyOf with nullable",
      { description: "ta", type: ["string", "null"] },
      '{"description":"ta","anyOf":[{"type":"string"}],"nullable":true}',
    ],
    [
      "a type array without null has no nullable flag",
      { type: ["string", "number"] },
      '{"anyOf":[{"type":"string"},{"type":"number"}]}',
    ],
    [
      "a type array replaces an existing anyOf in place",
      { type: ["string", "null"], anyOf: [{ type: "number" }], description: "x" },
      '{"anyOf":[{"type":"string"}],"description":"x","nullable":true}',
    ],
    ["a type array of null only is the null type", { type: ["null"] }, '{"type":"null"}'],
    ["an empty type array is the null type", { type: [] }, '{"type":"null"}'],
    [
      "an array without items gets string items",
      { type: "array", description: "ani" },
      '{"type":"array","description":"ani","items":{"type":"string"}}',
    ],
    ["null items become string items", { type: "array", items: null }, '{"type":"array","items":{"type":"string"}}'],
    [
      "items with no schema intent get a string type",
      { type: "array", items: { description: "only desc" } },
      '{"type":"array","items":{"description":"only desc","type":"string"}}',
    ],
    ["items with not are left alone", { type: "array", items: { not: {} } }, '{"type":"array","items":{"not":{}}}'],
    [
      "an array with a combiner gets no items",
      { type: "array", oneOf: [{ type: "string" }] },
      '{"type":"array","oneOf":[{"type":"string"}]}',
    ],
    [
      "tuple-form items are left alone",
      { type: "array", items: [{ type: "string" }, { type: "number" }] },
      '{"type":"array","items":[{"type":"string"},{"type":"number"}]}',
    ],
    [
      "required keeps only existing properties",
      { type: "object", properties: { a: { type: "string" } }, required: ["a", "zz", 5] },
      '{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}',
    ],
    [
      "required is not filtered without a type",
      { properties: { a: { type: "string" } }, required: ["a", "b"] },
      '{"properties":{"a":{"type":"string"}},"required":["a","b"]}',
    ],
    [
      "a non-object type loses properties and required",
      { type: "string", properties: { a: { type: "string" } }, required: ["a"] },
      '{"type":"string"}',
    ],
    [
      "a non-object type with a combiner keeps them",
      { type: "string", anyOf: [{ type: "string" }], properties: { a: {} }, required: ["a"] },
      '{"type":"string","anyOf":[{"type":"string"}],"properties":{"a":{}},"required":["a"]}',
    ],
    [
      "properties named like keywords are still schemas",
      {
        type: "object",
        properties: { type: { type: "integer", enum: [1] }, enum: { type: "string" }, items: { type: "string" } },
        required: ["type", "enum", "items"],
      },
      '{"type":"object","properties":{"type":{"type":"string","enum":["1"]},"enum":{"type":"string"},"items":{"type":"string"}},"required":["type","enum","items"]}',
    ],
    [
      "values inside default and examples are walked too",
      { type: "number", examples: [{ type: "array" }] },
      '{"type":"number","examples":[{"type":"array","items":{"type":"string"}}]}',
    ],
    ["const is not stringified", { type: "number", const: 1 }, '{"type":"number","const":1}'],
  ]

  test.each(fragments)("%s", (_sentence, fragment, expected) => {
    expect(sentProperty(fragment, gemini)).toBe(expected)
  })

  test("the provider id google applies the fixes whatever the model id", () => {
    const google = { npm: "@ai-sdk/openai-compatible", providerID: "google", modelID: "probe-model" }
    expect(sentProperty({ type: "integer", enum: [1, 2], description: "tf" }, google)).toBe(
      '{"type":"string","enum":["1","2"],"description":"tf"}',
    )
  })

  test("the model id check is case-sensitive", () => {
    const upper = { ...compatible, modelID: "Probe-GEMINI-x" }
    expect(sentProperty({ type: "integer", enum: [1, 2], description: "tf" }, upper)).toBe(
      '{"type":"integer","enum":[1,2],"description":"tf"}',
    )
  })
})

describe("providerSchema() for Moonshot and Kimi models", () => {
  const fragments: [string, unknown, string][] = [
    [
      "a $ref drops its sibling keys",
      { $ref: "#/definitions/x", description: "refdesc", title: "rt" },
      '{"$ref":"#/definitions/x"}',
    ],
    ["a $ref that is not a string is left alone", { $ref: 5, description: "d" }, '{"$ref":5,"description":"d"}'],
    [
      "tuple-form items become their first element",
      { type: "array", items: [{ type: "string" }, { type: "number" }] },
      '{"type":"array","items":{"type":"string"}}',
    ],
    ["empty tuple-form items become an empty schema", { type: "array", items: [] }, '{"type":"array","items":{}}'],
    [
      "nested tuples are reduced too",
      { type: "array", items: [{ type: "array", items: [{ type: "string" }, true] }, { type: "number" }] },
      '{"type":"array","items":{"type":"array","items":{"type":"string"}}}',
    ],
    [
      "refs inside other keywords are reduced too",
      { type: "object", default: { $ref: "x", y: 1 } },
      '{"type":"object","default":{"$ref":"x"}}',
    ],
  ]

  test.each(fragments)("%s", (_sentence, fragment, expected) => {
    expect(sentProperty(fragment, kimi)).toBe(expected)
  })

  test("a zod tool without refs or tuple items is sent unchanged", () => {
    const schema = schemaOf({ name: z.string().describe("who"), tup: z.tuple([z.string()]) })
    expect(providerSchema(schema, kimi)).toEqual(schema)
  })

  test("a described recursive zod arg loses its description next to the $ref", () => {
    const tree: z.ZodType = z.lazy(() => z.object({ children: z.array(tree) }))
    const sent = providerSchema(schemaOf({ tree: tree.describe("a tree") }), kimi)
    expect(JSON.stringify(sent.properties)).toBe('{"tree":{"$ref":"#/$defs/__schema0"}}')
  })

  test("the provider id moonshotai applies the fixes whatever the model id", () => {
    const moonshot = { ...compatible, providerID: "moonshotai", modelID: "probe-model" }
    expect(sentProperty({ $ref: "#/definitions/x", description: "refdesc", title: "rt" }, moonshot)).toBe(
      '{"$ref":"#/definitions/x"}',
    )
  })
})

describe("providerSchema() in general", () => {
  test("other providers get the schema unchanged", () => {
    const schema = schemaOf({ n: z.literal([1, 2]), t: z.tuple([z.string()]) })
    expect(JSON.stringify(providerSchema(schema, compatible))).toBe(JSON.stringify(schema))
  })

  test("the fixes run in order OpenAI, Moonshot, Gemini, so Gemini sees OpenAI's type-last nodes", () => {
    const all = { npm: "@ai-sdk/openai", providerID: "probe", modelID: "kimi-gemini-x" }
    const sent = providerSchema(
      {
        type: "object",
        properties: {
          typeFirst: { type: "integer", enum: [1, 2], description: "tf" },
          typeArr: { description: "ta", type: ["string", "null"] },
          refSib: { $ref: "#/definitions/x", description: "refdesc", title: "rt" },
          tuple: { type: "array", items: [{ type: "string" }, { type: "number" }] },
        },
      },
      all,
    )
    expect(JSON.stringify(sent)).toBe(
      '{"properties":{"typeFirst":{"description":"tf","enum":["1","2"],"type":"integer"},"typeArr":{"description":"ta","anyOf":[{"type":"string"}],"nullable":true},"refSib":{"$ref":"#/definitions/x"},"tuple":{"items":{"type":"string"},"type":"array"}},"type":"object"}',
    )
  })

  test("the input schema is never changed", () => {
    const input = {
      type: "object",
      properties: {
        a: { type: "integer", enum: [1], description: "x", items: [{ type: "string" }] },
        b: { type: ["string", "null"] },
        c: { $ref: "#/x", title: "t" },
        d: { type: "array" },
        e: true,
      },
      required: ["a", "zz"],
    }
    const before = JSON.stringify(input)
    for (const model of [openai, azure, gemini, kimi, { ...openai, modelID: "kimi-gemini" }])
      providerSchema(deepFreeze(input), model)
    expect(JSON.stringify(input)).toBe(before)
  })
})

describe("strictFlag()", () => {
  test("is false for the OpenAI, Azure and Bedrock Mantle packages", () => {
    expect(strictFlag("@ai-sdk/openai")).toBe(false)
    expect(strictFlag("@ai-sdk/azure")).toBe(false)
    expect(strictFlag("@ai-sdk/amazon-bedrock/mantle")).toBe(false)
  })

  test("is undefined for every other package", () => {
    expect(strictFlag("@ai-sdk/openai-compatible")).toBeUndefined()
    expect(strictFlag("@ai-sdk/amazon-bedrock")).toBeUndefined()
    expect(strictFlag("@ai-sdk/google")).toBeUndefined()
  })
})

// --- internal ---

function schemaOf(args: Record<string, unknown>): Record<string, unknown> {
  const result = toolJsonSchema(args)
  if (!result.success) throw result.error
  return result.value
}

function sentTool(args: Record<string, unknown>, model: SchemaModel): string {
  return JSON.stringify(providerSchema(schemaOf(args), model))
}

/** The fragment as sent, when it is the only property of a legacy (non-zod) tool. */
function sentProperty(fragment: unknown, model: SchemaModel): string {
  const sent = providerSchema(schemaOf({ arg: fragment }), model)
  return JSON.stringify((sent.properties as Record<string, unknown>).arg)
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child)
    Object.freeze(value)
  }
  return value
}
