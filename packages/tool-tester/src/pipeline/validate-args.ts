import { z } from "zod"
import { described } from "../_described.ts"
import { isRecord } from "../_is-record.ts"
import { ToolTesterError } from "../errors.ts"
import type { ToolDefinitionLike } from "../discovery/tool-exports.ts"
import { isZodSchema } from "../schema/tool-json-schema.ts"

/**
 * Opt-in validation like opencode's built-in tool wrapper
 * (docs/opencode-contract.md#built-in-validation). opencode 1.18 does NOT validate custom tools:
 * they receive the raw arguments. Use this to catch what the schema promises but the model may
 * break. On failure, `message` is the exact text the built-in wrapper produces.
 */
export function validateArgs(
  toolId: string,
  definition: ToolDefinitionLike,
  args: unknown,
): { success: true; value: unknown } | { success: false; message: string } {
  // Public: a definition it cannot read is USAGE naming it, not a TypeError from inside.
  if (typeof toolId !== "string" || !isRecord(definition))
    throw new ToolTesterError(
      "USAGE",
      typeof toolId !== "string"
        ? `validateArgs's toolId must be the tool's name, a string, not ${described(toolId)}`
        : `validateArgs's definition must be the tool object (what tool() returned), not ${described(definition)}`,
      { data: { option: typeof toolId !== "string" ? "toolId" : "definition" } },
    )
  const shape = (definition.args ?? {}) as Record<string, unknown>
  if (!Object.values(shape).every(isZodSchema)) return { success: true, value: args }
  const parsed = z.object(shape as z.ZodRawShape).safeParse(args)
  if (parsed.success) return { success: true, value: parsed.data }
  const detail =
    typeof definition.formatValidationError === "function"
      ? String(definition.formatValidationError(parsed.error))
      : formatZodError(parsed.error)
  return {
    success: false,
    message: `The ${toolId} tool was called with invalid arguments: ${detail}.\nPlease rewrite the input so it satisfies the expected schema.`,
  }
}

/** Issues joined by `; `, each `<path joined by ".">: <message>`, an empty path written `input`. */
function formatZodError(error: {
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>
}): string {
  return error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.map(String).join(".") : "input"}: ${issue.message}`)
    .join("; ")
}
