// What the server sends (src/inspector/project-view.ts and session.ts), as the page reads it.

export type Problem = {
  code: string
  severity: string
  message: string
  file?: string | null
  rule?: string
  provider?: string
}

export type ToolView = {
  id: string
  source: "builtin" | "file" | "plugin"
  file?: string
  export?: string
  plugin?: string
  overrides?: string
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
  enum?: unknown[]
  const?: unknown
  description?: string | undefined
  default?: unknown
  anyOf?: JsonSchema[]
  minimum?: number
  maximum?: number
}

export type ToolSchema = { name: string; description: string; parameters: JsonSchema; strict?: false }

export type Engine = { name: string; version: string; binary: string }

export type ProjectView = {
  generation: number
  engine?: Engine
  directory: string
  loadMs: number
  error?: { code: string; message: string }
  tools: ToolView[]
  problems: Problem[]
  providers: Array<{ name: string; label: string; model: { npm: string; providerID: string; modelID: string } }>
  schemas: Record<string, { tools: Record<string, ToolSchema> } | { error: { code: string; message: string } }>
  diagnosed: boolean
}

export type CallRequest = { name: string } & ({ form: "args"; args: unknown } | { form: "raw"; text: string })

export type RunResult = {
  name: string
  id: string
  status: "completed" | "error"
  output: string
  title: string | null
  metadata: Record<string, unknown> | null
  attachments?: unknown[]
  truncated: boolean
  outputPath?: string
  args: unknown
  repaired: boolean
  rerouted: boolean
  asks: unknown[]
  metadataCalls: unknown[]
  durationMs: number
  hookErrors?: unknown[]
  error?: { code: string; message: string }
}

export type HistoryEntry = {
  id: number
  at: string
  trigger: "run" | "replay" | "reload"
  request: CallRequest
  generation: number
  engine?: Engine
  result?: RunResult
  error?: { code: string; message: string }
}
