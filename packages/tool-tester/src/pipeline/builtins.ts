/** The model a tool list is built for: the provider's npm package, provider id and model id as in opencode config. */
export type ModelSelection = { npm: string; providerID: string; modelID: string }

export const DEFAULT_MODEL: ModelSelection = {
  npm: "@ai-sdk/openai-compatible",
  providerID: "mock",
  modelID: "mock-model",
}

/**
 * opencode 1.18.34's built-in tools in registry order (docs/opencode-contract.md#built-in-tools),
 * as `opencode run` offers them. `question` is left out: under `opencode run` it was never offered
 * (docs/opencode-contract.md#built-in-tools). `execute`, `lsp` and `plan_exit` need experimental
 * flags and are left out too.
 */
const REGISTRY_ORDER = [
  "invalid",
  "bash",
  "read",
  "glob",
  "grep",
  "edit",
  "write",
  "task",
  "webfetch",
  "todowrite",
  "websearch",
  "skill",
  "apply_patch",
] as const

/** Built-in ids kept for this model, in registry order (`invalid` included: it is registered, never offered). */
export function builtinToolIds(model: ModelSelection): string[] {
  return REGISTRY_ORDER.filter((id) => keptForModel(id, model))
}

/**
 * opencode's per-model filter, applied to every registry entry by id, custom tools included: a
 * custom `edit` is hidden from GPT-5 models exactly like the built-in one.
 */
export function keptForModel(id: string, model: ModelSelection): boolean {
  if (id === "websearch") return model.providerID === "opencode"
  if (id === "apply_patch") return usesApplyPatch(model.modelID)
  if (id === "edit" || id === "write") return !usesApplyPatch(model.modelID)
  return true
}

/**
 * For an id opencode's per-model filter (keptForModel) may hide, which models it is offered to, as
 * "never offered to ..." / "offered only ...": the same for the built-in and a custom tool of that id.
 */
export function modelFilterNote(id: string): string | undefined {
  const gpt = "GPT models (a model id with gpt-, not gpt-4 or oss, such as gpt-5)"
  if (id === "edit" || id === "write") return `never offered to ${gpt}, which get apply_patch instead`
  if (id === "apply_patch") return `offered only to ${gpt}; other models get edit and write instead`
  if (id === "websearch") return "offered only with the provider opencode (opencode's own models)"
  return undefined
}

/** Every built-in name, whatever the model: a custom tool with one of these names replaces it. */
export const BUILTIN_TOOL_IDS: readonly string[] = REGISTRY_ORDER

/** GPT-style models get `apply_patch` instead of `edit` and `write` (case-sensitive substrings). */
function usesApplyPatch(modelID: string): boolean {
  return modelID.includes("gpt-") && !modelID.includes("oss") && !modelID.includes("gpt-4")
}
