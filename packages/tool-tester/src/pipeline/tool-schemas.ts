import { isRecord } from "../_is-record.ts"
import type { PermissionRule } from "../config/permission.ts"
import { liveDefinition, liveHooks } from "./live.ts"
import type { Result } from "../errors.ts"
import { ToolTesterError } from "../errors.ts"
import { providerSchema, strictFlag } from "../schema/provider-schema.ts"
import { toolJsonSchema } from "../schema/tool-json-schema.ts"
import type { LoadedTool, ToolProject } from "../types.ts"
import type { ModelSelection } from "./builtins.ts"
import { offeredTools } from "./tool-list.ts"

/** One custom or plugin tool as it appears in the provider request. */
export type ToolSchema = { name: string; description: string; parameters: Record<string, unknown>; strict?: false }

const NULL_SCHEMA = { $schema: "https://json-schema.org/draft/2020-12/schema", type: "null" }

/**
 * The custom and plugin tools exactly as opencode puts them in the request for this model:
 * converted with zod's own `toJSONSchema`, passed through the plugins' `tool.definition` hooks, then
 * the provider's fixes, in request order. Fails with SCHEMA_UNREPRESENTABLE when one tool's args
 * cannot be converted: opencode then offers no tool at all.
 */
export async function toolSchemas(
  project: ToolProject,
  model: ModelSelection,
  rules: readonly PermissionRule[],
): Promise<Result<ToolSchema[]>> {
  const schemas: ToolSchema[] = []
  for (const entry of offeredTools(project, model, rules)) {
    if (entry.source === "builtin") continue
    const converted = toolJsonSchema(liveDefinition(entry.tool).args)
    if (!converted.success) return { success: false, error: withTool(converted.error, entry.tool) }
    const output: Record<string, unknown> = {
      description: liveDefinition(entry.tool).description,
      parameters: OPAQUE_PARAMETERS,
      jsonSchema: converted.value,
    }
    for (const plugin of project.plugins) {
      const hook = liveHooks(plugin)["tool.definition"]
      if (typeof hook !== "function") continue
      try {
        await hook({ toolID: entry.id }, output)
        // opencode reads its own Effect Schema back from `parameters`: anything else kills the run
        // before any request (observed: "undefined is not an object (evaluating 'X.encoding')").
        if (output["parameters"] !== OPAQUE_PARAMETERS) {
          return {
            success: false,
            error: new ToolTesterError(
              "PLUGIN_LOAD_FAILED",
              `${plugin.file}: its tool.definition hook replaced parameters for ${entry.id}; opencode then crashes before sending any request (TypeError: undefined is not an object (evaluating '...encoding')): change output.jsonSchema instead`,
              { data: { file: plugin.file, tool: entry.id } },
            ),
          }
        }
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error)
        return {
          success: false,
          error: new ToolTesterError(
            "PLUGIN_LOAD_FAILED",
            `${plugin.file}: its tool.definition hook threw for ${entry.id}: ${message}; opencode fails the request`,
            { data: { file: plugin.file, tool: entry.id }, cause: error },
          ),
        }
      }
    }
    const jsonSchema = isRecord(output["jsonSchema"]) ? output["jsonSchema"] : NULL_SCHEMA
    const description = typeof output["description"] === "string" ? output["description"] : ""
    const schema: ToolSchema = { name: entry.id, description, parameters: providerSchema(jsonSchema, model) }
    if (strictFlag(model.npm) === false) schema.strict = false
    schemas.push(schema)
  }
  return { success: true, value: schemas }
}

// --- internal ---

/** Stands in for the Effect Schema opencode passes as `parameters` to `tool.definition` hooks. */
const OPAQUE_PARAMETERS = Object.freeze({ "~opaque": "opencode Effect Schema; change jsonSchema instead" })

function withTool(error: ToolTesterError, tool: LoadedTool): ToolTesterError {
  return new ToolTesterError(error.code, `${tool.file}: tool ${tool.id}: ${error.message}`, {
    data: { ...error.data, tool: tool.id, file: tool.file },
    cause: error,
  })
}
