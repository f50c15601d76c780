import { getToolSchemas } from "../list-tools.ts"
import { loadTools } from "../load-tools.ts"
import { closeProject } from "../run-tool.ts"
import type { ToolSnapshot } from "./types.ts"

/**
 * The project's custom and plugin tools as opencode's default model is offered them (ids, descriptions,
 * JSON Schemas), read without opencode: what `eval --init` writes cases from and what case files are
 * checked against. `error` is the first load problem; then the list may miss that file's tools.
 */
export async function listProjectTools(directory: string): Promise<{ tools: ToolSnapshot[]; error?: string }> {
  const loaded = await loadTools({ directory })
  try {
    const failed = loaded.diagnostics.find(
      (diagnostic) => diagnostic.severity === "error" && diagnostic.code !== "NO_TOOLS",
    )
    const schemas = await getToolSchemas(loaded)
    if (!schemas.success) return { tools: [], error: schemas.error.message }
    const tools = schemas.value.map((schema) => ({
      id: schema.name,
      description: schema.description,
      parameters: schema.parameters,
    }))
    return failed === undefined ? { tools } : { tools, error: failed.message }
  } finally {
    closeProject(loaded)
  }
}
