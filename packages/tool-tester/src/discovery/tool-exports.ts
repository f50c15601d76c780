import path from "node:path"

/** A tool definition as opencode accepts it: any object with `args`, `description` and `execute` keys. */
export type ToolDefinitionLike = {
  description: unknown
  args: unknown
  execute: unknown
  formatValidationError?: unknown
}

/** opencode's test: a non-null object that has the three keys (values are not checked). */
function isToolShape(value: unknown): value is ToolDefinitionLike {
  return typeof value === "object" && value !== null && "args" in value && "description" in value && "execute" in value
}

/** The id opencode gives a file tool: the file name without its last extension, `_export` for named exports. */
function toolId(file: string, exportName: string): string {
  const namespace = path.basename(file, path.extname(file))
  return exportName === "default" ? namespace : `${namespace}_${exportName}`
}

export type ToolExport = { id: string; exportName: string; definition: ToolDefinitionLike }

/** The exports of a module that opencode registers as tools, in module-namespace order. */
export function toolExports(file: string, namespace: Record<string, unknown>): ToolExport[] {
  const found: ToolExport[] = []
  for (const [exportName, value] of Object.entries(namespace)) {
    if (isToolShape(value)) found.push({ id: toolId(file, exportName), exportName, definition: value })
  }
  return found
}

/** Exports that look like an attempt at a tool but that opencode ignores (for doctor). */
export function nearMisses(namespace: Record<string, unknown>): Array<{ exportName: string; missing: string[] }> {
  const misses: Array<{ exportName: string; missing: string[] }> = []
  for (const [exportName, value] of Object.entries(namespace)) {
    if (typeof value !== "object" || value === null || isToolShape(value)) continue
    const present = ["args", "description", "execute"].filter((key) => key in value)
    if (present.length === 0) continue
    misses.push({ exportName, missing: ["args", "description", "execute"].filter((key) => !(key in value)) })
  }
  return misses
}
