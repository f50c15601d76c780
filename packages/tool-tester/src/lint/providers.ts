// The providers the lint knows, each with the model opencode would build the request for: the
// schema a provider receives depends on opencode's fixes for that model
// (docs/opencode-contract.md#provider-fixes).
import { closestMatch } from "../did-you-mean.ts"
import type { ModelSelection } from "../pipeline/builtins.ts"
import { modelSelection } from "../pipeline/model-selection.ts"
import { PROVIDER_NAMES } from "../pipeline/provider-names.ts"

export type LintProvider =
  | "openai"
  | "openai-compatible"
  | "anthropic"
  | "google"
  | "gemini-gateway"
  | "moonshot"
  | "mistral"
  | "bedrock"

export type LintProviderInfo = {
  /** Who answers the request, for messages. */
  label: string
  /** The model the schemas are built for (its npm package, provider id and model id drive opencode's fixes). */
  model: ModelSelection
}

export const LINT_PROVIDERS: Record<LintProvider, LintProviderInfo> = {
  openai: {
    label: "OpenAI (@ai-sdk/openai)",
    model: { npm: "@ai-sdk/openai", providerID: "openai", modelID: "gpt-5" },
  },
  "openai-compatible": {
    label: "an OpenAI-compatible endpoint (@ai-sdk/openai-compatible)",
    model: { npm: "@ai-sdk/openai-compatible", providerID: "openai-compatible", modelID: "gpt-4.1" },
  },
  anthropic: {
    label: "Anthropic (@ai-sdk/anthropic)",
    model: { npm: "@ai-sdk/anthropic", providerID: "anthropic", modelID: "claude-sonnet-4-5" },
  },
  google: {
    label: "Gemini (@ai-sdk/google)",
    model: { npm: "@ai-sdk/google", providerID: "google", modelID: "gemini-2.5-pro" },
  },
  "gemini-gateway": {
    label: "Gemini behind an OpenAI-compatible gateway",
    model: { npm: "@ai-sdk/openai-compatible", providerID: "openrouter", modelID: "google/gemini-2.5-pro" },
  },
  moonshot: {
    label: "Moonshot/Kimi",
    model: { npm: "@ai-sdk/openai-compatible", providerID: "moonshotai", modelID: "kimi-k2" },
  },
  mistral: {
    label: "Mistral (@ai-sdk/mistral)",
    model: { npm: "@ai-sdk/mistral", providerID: "mistral", modelID: "mistral-large-latest" },
  },
  bedrock: {
    label: "Amazon Bedrock Converse (@ai-sdk/amazon-bedrock)",
    model: { npm: "@ai-sdk/amazon-bedrock", providerID: "amazon-bedrock", modelID: "anthropic.claude-sonnet-4" },
  },
}

export const LINT_PROVIDER_NAMES = Object.keys(LINT_PROVIDERS) as LintProvider[]

function isLintProvider(name: string): name is LintProvider {
  return Object.hasOwn(LINT_PROVIDERS, name)
}

/**
 * The lint provider whose rules apply to a model as opencode would call it: by provider id (the
 * catalogue's `openai`, `anthropic`, `google`, ...), else by what the model id names (a Gemini model
 * behind another provider is a Gemini gateway), else an OpenAI-compatible endpoint. A provider id
 * of none of those with a neutral model id (`--model` alone) is read from the model id.
 */
export function lintProviderOf(model: { providerID: string; modelID: string }): LintProvider {
  const byId = PROVIDER_IDS[model.providerID]
  if (byId !== undefined) return byId
  const id = model.modelID.toLowerCase()
  if (id.includes("gemini")) return NEUTRAL_PROVIDER_IDS.has(model.providerID) ? "google" : "gemini-gateway"
  if (!NEUTRAL_PROVIDER_IDS.has(model.providerID)) return "openai-compatible"
  if (id.includes("claude")) return "anthropic"
  if (/(^|\/)(gpt-|o\d)/.test(id)) return "openai"
  if (id.includes("kimi")) return "moonshot"
  if (id.includes("mistral")) return "mistral"
  return "openai-compatible"
}

/**
 * The models a project's opencode.json names (`model`, `small_model`, each agent's and mode's
 * `model`), as `provider/model` strings, parsed; the ones without a `/` are left out.
 */
export function configuredModels(config: Record<string, unknown>): Array<{ providerID: string; modelID: string }> {
  const names: unknown[] = [config["model"], config["small_model"]]
  for (const key of ["agent", "mode"]) {
    const entries = config[key]
    if (typeof entries !== "object" || entries === null) continue
    for (const entry of Object.values(entries as Record<string, unknown>)) {
      if (typeof entry === "object" && entry !== null) names.push((entry as Record<string, unknown>)["model"])
    }
  }
  return names.flatMap((name) => {
    if (typeof name !== "string") return []
    const slash = name.indexOf("/")
    return slash > 0 ? [{ providerID: name.slice(0, slash), modelID: name.slice(slash + 1) }] : []
  })
}

/** A provider's name as the matchers and doctor take it: a lint provider, or any name `--provider` takes. */
export type ProviderName = LintProvider | (string & {})

/** Every provider name the matchers take: the lint's own, then the CLI's short names and aliases. */
export const ALL_PROVIDER_NAMES: readonly string[] = [...new Set([...LINT_PROVIDER_NAMES, ...PROVIDER_NAMES])]

/**
 * The lint provider a name stands for: a lint provider's own name, or a `--provider` name
 * (`gemini` and `google-vertex` are google, `amazon-bedrock` is bedrock, `azure` is openai, a provider
 * the lint has no rules of its own for is openai-compatible). Undefined for a name neither knows.
 */
export function lintProviderNamed(name: string): LintProvider | undefined {
  if (isLintProvider(name)) return name
  if (!PROVIDER_NAMES.includes(name.toLowerCase())) return undefined
  return lintProviderOf(modelSelection({ provider: name }))
}

/** `unknown provider "gemni": did you mean gemini? use one of ...`, for an unknown name. */
export function unknownProviderMessage(name: string): string {
  const match = closestMatch(name, ALL_PROVIDER_NAMES)
  return `unknown provider ${JSON.stringify(name)}: ${match === undefined ? "" : `did you mean ${match}? `}use one of ${ALL_PROVIDER_NAMES.join(", ")}`
}

// --- internal ---

const PROVIDER_IDS: Readonly<Record<string, LintProvider>> = {
  openai: "openai",
  azure: "openai",
  anthropic: "anthropic",
  google: "google",
  "google-vertex": "google",
  "google-vertex-anthropic": "anthropic",
  moonshotai: "moonshot",
  "moonshotai-cn": "moonshot",
  mistral: "mistral",
  "amazon-bedrock": "bedrock",
}

/** The provider ids `--model` alone leaves (tool-tester's neutral default) or that say nothing of the rules. */
const NEUTRAL_PROVIDER_IDS = new Set(["mock", "openai-compatible"])
