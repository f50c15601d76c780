import path from "node:path"
import type { Result } from "../errors.ts"
import { messageOfThrown, ToolTesterError } from "../errors.ts"

/** A tool definition as opencode accepts it: any object with `args`, `description` and `execute` keys. */
export type ToolDefinitionLike = {
  description: unknown
  args: unknown
  execute: unknown
  formatValidationError?: unknown
}

/**
 * opencode's test: a non-null object that has the three keys (values are not checked). The `in`
 * tests run a Proxy's `has` trap, which may throw: the caller decides what that means.
 */
function isToolShape(value: unknown): value is ToolDefinitionLike {
  return typeof value === "object" && value !== null && "args" in value && "description" in value && "execute" in value
}

/** The id opencode gives a file tool: the file name without its last extension, `_export` for named exports. */
function toolId(file: string, exportName: string): string {
  const namespace = path.basename(file, path.extname(file))
  return exportName === "default" ? namespace : `${namespace}_${exportName}`
}

export type ToolExport = { id: string; exportName: string; definition: ToolDefinitionLike }

/**
 * The exports of a module that opencode registers as tools, in module-namespace order. When the
 * test of an export throws (a Proxy whose `has` trap throws), opencode's tool list fails to load
 * as when a file fails to import: so does this, with IMPORT_FAILED naming the export.
 */
export function toolExports(file: string, namespace: Record<string, unknown>): Result<ToolExport[]> {
  const found: ToolExport[] = []
  for (const [exportName, value] of Object.entries(namespace)) {
    let isTool: boolean
    try {
      isTool = isToolShape(value)
    } catch (error) {
      return {
        success: false,
        error: unloadableExport(
          file,
          exportName,
          `checking it for the args, description and execute keys threw: ${messageOfThrown(error)}`,
        ),
      }
    }
    if (isTool) found.push({ id: toolId(file, exportName), exportName, definition: value as ToolDefinitionLike })
  }
  return { success: true, value: found }
}

/**
 * IMPORT_FAILED for a tool file whose export opencode cannot read while it builds its tool list
 * (`problem` says what threw): opencode then offers no tool at all, as for a file that fails to import.
 */
export function unloadableExport(file: string, exportName: string, problem: string): ToolTesterError {
  return new ToolTesterError("IMPORT_FAILED", `${file}: opencode cannot load its export ${exportName}: ${problem}`, {
    data: { file, export: exportName },
  })
}

/** Exports that look like an attempt at a tool but that opencode ignores (for doctor). */
export function nearMisses(namespace: Record<string, unknown>): Array<{ exportName: string; missing: string[] }> {
  const misses: Array<{ exportName: string; missing: string[] }> = []
  for (const [exportName, value] of Object.entries(namespace)) {
    try {
      if (typeof value !== "object" || value === null || isToolShape(value)) continue
      const present = ["args", "description", "execute"].filter((key) => key in value)
      if (present.length === 0) continue
      misses.push({ exportName, missing: ["args", "description", "execute"].filter((key) => !(key in value)) })
    } catch {
      // A Proxy whose `has` trap throws only now: toolExports already read it once, nothing to advise.
    }
  }
  return misses
}
