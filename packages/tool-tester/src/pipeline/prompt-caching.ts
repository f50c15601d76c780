// Whether opencode marks a request's last two messages for prompt caching, which changes how the
// messages carrying a result are written (docs/opencode-contract.md#attachments; observed on
// 1.18.34 with e2e): for an Anthropic model (the provider `anthropic` or `google-vertex-anthropic`,
// a model id or API id naming `anthropic` or `claude`, the `@ai-sdk/anthropic` or `@ai-sdk/alibaba`
// package), not through `@ai-sdk/gateway`, and not when the model's own options
// (`provider.<id>.models.<id>.options`) set `cacheControl` for `@ai-sdk/anthropic` or
// `@ai-sdk/google-vertex/anthropic`, which then caches the whole request instead. The provider's
// options setting `cacheControl` change nothing (observed).
import { isRecord } from "../_is-record.ts"
import type { ModelSelection } from "./builtins.ts"

/** True when opencode adds its caching marks to the request's last two messages for this model. */
export function marksForCaching(model: ModelSelection, config: Record<string, unknown>): boolean {
  if (model.npm === "@ai-sdk/gateway") return false
  const entry = modelEntry(config, model)
  const apiID = typeof entry["id"] === "string" ? entry["id"] : model.modelID
  const anthropic =
    model.providerID === "anthropic" ||
    model.providerID === "google-vertex-anthropic" ||
    [apiID, model.modelID].some((id) => id.includes("anthropic") || id.includes("claude")) ||
    model.npm === "@ai-sdk/anthropic" ||
    model.npm === "@ai-sdk/alibaba"
  if (!anthropic) return false
  const options = entry["options"]
  const cachesWhole =
    isRecord(options) &&
    options["cacheControl"] !== undefined &&
    (model.npm === "@ai-sdk/anthropic" || model.npm === "@ai-sdk/google-vertex/anthropic")
  return !cachesWhole
}

// --- internal ---

/** The config's entry for the model (`provider.<id>.models.<id>`), or an empty one. */
function modelEntry(config: Record<string, unknown>, model: ModelSelection): Record<string, unknown> {
  const providers = config["provider"]
  const provider = isRecord(providers) ? providers[model.providerID] : undefined
  const models = isRecord(provider) ? provider["models"] : undefined
  const entry = isRecord(models) ? models[model.modelID] : undefined
  return isRecord(entry) ? entry : {}
}
