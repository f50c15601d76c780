// The names of the tools a request to the mock model offered, in each API's shape: chat
// completions' `{type: "function", function: {name}}`, the responses and messages APIs' `{name}`,
// Google's one `{functionDeclarations: [{name}, ...]}` for them all, Bedrock's `{toolSpec: {name}}`.
// And a call to a tool opencode did not offer.
import type { E2EResult } from "./e2e-result.ts"

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

/**
 * A call opencode could not run because it offered the model neither the tool called nor `invalid`,
 * where it reroutes an unknown name, with the failure line that says so; undefined when there was
 * none. Observed on 1.18.34 with `"permission": {"*": "deny"}`: the requests offer no tools at all,
 * and the call ends in error, the model reading the AI SDK's `Model tried to call unavailable tool
 * 'invalid'. Available tools: .` (docs/opencode-contract.md#offered-tools).
 */
export function unofferedCall(result: Pick<E2EResult, "tools" | "calls">): string | undefined {
  const offered = new Set(offeredToolNames(result.tools ?? []))
  const call = result.calls.find(
    (entry) =>
      entry.status === "error" &&
      !offered.has(entry.as_run?.name ?? entry.as_called.name) &&
      (entry.error ?? "").startsWith(unavailableTool),
  )
  if (call === undefined) return undefined
  const none =
    result.tools === null || offered.size === 0
      ? 'opencode offered the model no tools (a config that denies every tool, such as {"permission":{"*":"deny"}}, removes them all)'
      : `opencode did not offer ${call.as_called.name}`
  return `the call to ${call.as_called.name} was not run: ${none}, so it rerouted the call to the invalid tool, which it did not offer either; the model read: ${call.error}`
}

// --- internal ---

/** How the AI SDK answers a call to a tool it was not given (its NoSuchToolError). */
const unavailableTool = "Model tried to call unavailable tool"

function nameOf(name: unknown): string {
  return typeof name === "string" ? name : "?"
}
