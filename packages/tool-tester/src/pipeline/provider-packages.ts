// The providers `--provider` names by a short name, and their npm packages (provider-names.ts reads
// them). Kept apart, with no imports, so that dev's page can offer the same list.

/**
 * Short names and their npm packages: the providers whose requests opencode changes (OpenAI's
 * sanitiser and `strict: false` for openai, azure and amazon-bedrock-mantle; Gemini fixes for
 * google; Moonshot fixes for moonshotai) and the common ones of opencode's catalogue.
 */
export const PROVIDER_PACKAGES: Readonly<Record<string, string>> = {
  openai: "@ai-sdk/openai",
  "openai-compatible": "@ai-sdk/openai-compatible",
  anthropic: "@ai-sdk/anthropic",
  google: "@ai-sdk/google",
  "google-vertex": "@ai-sdk/google-vertex",
  azure: "@ai-sdk/azure",
  "amazon-bedrock": "@ai-sdk/amazon-bedrock",
  "amazon-bedrock-mantle": "@ai-sdk/amazon-bedrock/mantle",
  mistral: "@ai-sdk/mistral",
  groq: "@ai-sdk/groq",
  xai: "@ai-sdk/xai",
  deepseek: "@ai-sdk/deepseek",
  moonshotai: "@ai-sdk/moonshotai",
  cerebras: "@ai-sdk/cerebras",
  togetherai: "@ai-sdk/togetherai",
  deepinfra: "@ai-sdk/deepinfra",
  perplexity: "@ai-sdk/perplexity",
  openrouter: "@openrouter/ai-sdk-provider",
  "github-copilot": "@ai-sdk/github-copilot",
  alibaba: "@ai-sdk/alibaba",
  cohere: "@ai-sdk/cohere",
  venice: "venice-ai-sdk-provider",
  "google-vertex-anthropic": "@ai-sdk/google-vertex/anthropic",
}
