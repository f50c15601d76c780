// What `tool-tester e2e --init` writes: a script that calls each custom and plugin tool once, in
// order, with example arguments read from its JSON Schema (the required keys, with a plain value of
// the right type), then ends the turn with text. A starting point to edit, not a test by itself.

import { isRecord } from "../_is-record.ts"
import type { ToolSchema } from "../pipeline/tool-schemas.ts"
import { resolvePointer } from "../schema/refs.ts"
import { parseScript, type Script } from "./script.ts"

export function starterScript(schemas: readonly ToolSchema[]): Script {
  const turns = schemas.map((schema) => ({
    calls: [{ tool: schema.name, args: exampleArguments(schema.parameters) as Record<string, unknown> }],
  }))
  return parseScript({ prompt: "Use each tool once.", turns: [...turns, { text: "Done." }] })
}

/** Example arguments for a schema: required keys only, each with a simple value of its type. */
export function exampleArguments(schema: unknown): Record<string, unknown> {
  const value = exampleValue(schema, schema, 0)
  return isRecord(value) ? value : {}
}

// --- internal ---

function exampleValue(schema: unknown, root: unknown, depth: number): unknown {
  if (!isRecord(schema) || depth > 6) return null
  if (typeof schema["$ref"] === "string") return exampleValue(resolvePointer(root, schema["$ref"]), root, depth + 1)
  if ("const" in schema) return schema["const"]
  if (Array.isArray(schema["enum"]) && schema["enum"].length > 0) return schema["enum"][0]
  if ("default" in schema) return schema["default"]
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    const options = schema[key]
    if (Array.isArray(options)) {
      const usable = options.find((option) => !(isRecord(option) && option["type"] === "null"))
      return exampleValue(usable ?? options[0], root, depth + 1)
    }
  }
  const type = Array.isArray(schema["type"]) ? schema["type"].find((one) => one !== "null") : schema["type"]
  switch (type) {
    case "string":
      return exampleString(schema)
    case "integer":
    case "number":
      return typeof schema["minimum"] === "number" ? schema["minimum"] : 1
    case "boolean":
      return true
    case "null":
      return null
    case "array": {
      const prefix = schema["prefixItems"]
      if (Array.isArray(prefix)) return prefix.map((item) => exampleValue(item, root, depth + 1))
      return [exampleValue(schema["items"], root, depth + 1)]
    }
    default: {
      const properties = isRecord(schema["properties"]) ? schema["properties"] : {}
      const required = Array.isArray(schema["required"]) ? (schema["required"] as string[]) : []
      return Object.fromEntries(required.map((key) => [key, exampleValue(properties[key], root, depth + 1)]))
    }
  }
}

function exampleString(schema: Record<string, unknown>): string {
  switch (schema["format"]) {
    case "email":
      return "ada@example.com"
    case "uri":
    case "url":
      return "https://example.com"
    case "uuid":
      return "00000000-0000-4000-8000-000000000000"
    case "date-time":
      return "2026-01-01T00:00:00.000Z"
    case "date":
      return "2026-01-01"
    default:
      return "example"
  }
}
