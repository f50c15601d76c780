// What the server sends (src/inspector/project-view.ts and session.ts), as the page reads it.
import type { ListedTool } from "../../src/list-tools.ts"

export type Problem = {
  code: string
  severity: string
  message: string
  file?: string | null
  rule?: string
  provider?: string
}

/** A tool as `list` names it (the server's own type), with what the page shows beside it. */
export type ToolView = ListedTool & {
  description?: string | undefined
  replaces: string[]
  diagnostics: Problem[]
  findings: Problem[]
}

export type JsonSchema = {
  type?: string | string[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  items?: JsonSchema
  /** A tuple's positions (z.tuple), each with its own schema. */
  prefixItems?: JsonSchema[]
  /** A record's values (z.record), and its keys when they are limited. */
  additionalProperties?: JsonSchema | boolean
  propertyNames?: JsonSchema
  enum?: unknown[]
  const?: unknown
  description?: string | undefined
  default?: unknown
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  minimum?: number
  maximum?: number
  exclusiveMinimum?: number
  exclusiveMaximum?: number
  minItems?: number
  minLength?: number
}

type ToolSchema = { name: string; description: string; parameters: JsonSchema; strict?: false }

type Engine = { name: string; version: string; binary: string }

export type ProjectView = {
  generation: number
  engine?: Engine
  directory: string
  loadMs: number
  error?: { code: string; message: string }
  noTools?: { code: string; message: string }
  tools: ToolView[]
  problems: Problem[]
  providers: Array<{ name: string; label: string; model: { npm: string; providerID: string; modelID: string } }>
  schemas: Record<string, { tools: Record<string, ToolSchema> } | { error: { code: string; message: string } }>
  diagnosed: boolean
}

export type { CallModel, CallRequest, HistoryEntry } from "../../src/inspector/session.ts"
// Calls and their results cross as JSON in the server's own shapes: type-only imports, erased at build.
export type { RunResult } from "../../src/run-tool.ts"
