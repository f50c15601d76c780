// The providers the lint knows, each with the model opencode would build the request for: the
// schema a provider receives depends on opencode's fixes for that model
// (docs/opencode-contract.md#provider-fixes).
import type { ModelSelection } from "../pipeline/builtins.ts"

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

export function isLintProvider(name: string): name is LintProvider {
  return Object.hasOwn(LINT_PROVIDERS, name)
}
