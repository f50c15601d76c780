/**
 * opencode's built-in `invalid` tool (docs/opencode-contract.md#invalid-tool): where bad calls are
 * rerouted. It is registered but never offered; a model may still call it by name. Its input is
 * validated like every built-in.
 */
export function runInvalidTool(
  args: unknown,
): { success: true; title: string; output: string } | { success: false; output: string } {
  const record = (typeof args === "object" && args !== null ? args : {}) as Record<string, unknown>
  for (const key of ["tool", "error"]) {
    const value = record[key]
    if (typeof value === "string") continue
    const problem = value === undefined ? "Missing key" : `Expected string, got ${JSON.stringify(value)}`
    return {
      success: false,
      output: `The invalid tool was called with invalid arguments: SchemaError(${problem}\n  at ["${key}"]).\nPlease rewrite the input so it satisfies the expected schema.`,
    }
  }
  return {
    success: true,
    title: "Invalid Tool",
    output: `The arguments provided to the tool are invalid: ${record["error"]}`,
  }
}
