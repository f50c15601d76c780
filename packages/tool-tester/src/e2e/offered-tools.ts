// The names of the tools a request to the mock model offered, in each API's shape: chat
// completions' `{type: "function", function: {name}}`, the responses and messages APIs' `{name}`,
// Google's one `{functionDeclarations: [{name}, ...]}` for them all, Bedrock's `{toolSpec: {name}}`.

/** The offered tools' names in order; `?` for an entry without one. */
export function offeredToolNames(tools: readonly unknown[]): string[] {
  return tools.flatMap((tool) => {
    const record = tool as {
      name?: unknown
      function?: { name?: unknown }
      toolSpec?: { name?: unknown }
      functionDeclarations?: unknown
    } | null
    if (Array.isArray(record?.functionDeclarations))
      return record.functionDeclarations.map((declaration) => nameOf((declaration as { name?: unknown } | null)?.name))
    return [nameOf(record?.function?.name ?? record?.toolSpec?.name ?? record?.name)]
  })
}

// --- internal ---

function nameOf(name: unknown): string {
  return typeof name === "string" ? name : "?"
}
