// The opencode configuration of an e2e run, in two layers
// (docs/opencode-contract.md#driving-the-binary):
// - the global config file of the throw-away home (lowest precedence): `"permission": {"*":
//   "allow"}` and no update checks or sharing, so the project's own config can still override them;
// - `OPENCODE_CONFIG_CONTENT` (highest precedence): the mock provider, `model` and `small_model`
//   (so no request can leave for a real provider; the small model has an id of its own, by which
//   the mock model tells opencode's title request from a main one), the extra plugins, and the
//   caller's `config` deep-merged on top, by the one merge of opencode.json layers
//   (config/opencode-config.ts).
import { mergeConfig, type OpencodeConfig } from "../config/opencode-config.ts"
import { vertexAuthOptions } from "./model-apis/vertex-auth.ts"

export const mockProviderId = "mock"
export const defaultModel = "mock-model"
export const defaultProviderPackage = "@ai-sdk/openai-compatible"

export interface OpencodeConfigOptions {
  baseURL: string
  model: string
  /** npm package of the provider (`@ai-sdk/openai-compatible`, `@ai-sdk/openai`, `@ai-sdk/anthropic`, `@ai-sdk/google`). */
  providerPackage: string
  /** Plugin specs added to the `plugin` list. */
  plugins: string[]
  /** The caller's config, deep-merged last. */
  config: Record<string, unknown> | undefined
}

export interface OpencodeConfigLayers {
  global: Record<string, unknown>
  content: Record<string, unknown>
}

export function buildOpencodeConfig(options: OpencodeConfigOptions): OpencodeConfigLayers {
  const global = {
    $schema: "https://opencode.ai/config.json",
    autoupdate: false,
    share: "disabled",
    permission: { "*": "allow" },
  }
  const titleModel = titleModelOf(options.model)
  const provider = mockProvider(options)
  provider.models[titleModel] = { name: titleModel, tool_call: true }
  const content: Record<string, unknown> = {
    provider: { [mockProviderId]: provider },
    model: `${mockProviderId}/${options.model}`,
    small_model: `${mockProviderId}/${titleModel}`,
  }
  if (options.config === undefined) {
    if (options.plugins.length > 0) content.plugin = options.plugins
    return { global, content }
  }
  const merged: Record<string, unknown> = mergeConfig(content as OpencodeConfig, options.config as OpencodeConfig)
  // opencode adds up the plugin lists of its config layers; do the same with ours.
  const extra = Array.isArray(options.config.plugin) ? options.config.plugin : []
  if (options.plugins.length + extra.length > 0) merged.plugin = [...options.plugins, ...extra]
  return { global, content: merged }
}

/**
 * The id e2e gives opencode's small model, which sends the title request: the main model's id with
 * a suffix, so what opencode reads from an id (`gpt-`, `gemini`, a Bedrock model's family) is alike.
 */
export function titleModelOf(model: string): string {
  return `${model}-title`
}

/**
 * The mock model as a provider of opencode's config: `providerPackage` pointed at `baseURL`, with
 * `model` as its one model.
 */
export function mockProvider(options: Pick<OpencodeConfigOptions, "baseURL" | "model" | "providerPackage">) {
  // Every provider package takes the mock's URL as its `baseURL` and appends its API's route:
  // `/chat/completions`, `/responses`, `/messages`, and for `@ai-sdk/google` (and google-vertex)
  // `/models/<model>:streamGenerateContent?alt=sse`. The key is sent as each API sends one
  // (`x-goog-api-key` for Google's), so no provider reads a key from the environment.
  return {
    npm: options.providerPackage,
    name: "tool-tester mock model",
    options: {
      baseURL: options.baseURL,
      apiKey: "tool-tester-mock-key",
      // Claude on Vertex AI signs in to Google Cloud instead: at the mock too.
      ...(options.providerPackage === "@ai-sdk/google-vertex/anthropic"
        ? { googleAuthOptions: vertexAuthOptions(options.baseURL) }
        : {}),
    },
    models: { [options.model]: { name: options.model, tool_call: true } } as Record<
      string,
      { name: string; tool_call: boolean }
    >,
  }
}
