// `--provider`: a short name (`openai`, `anthropic`, ...) or the provider's npm package. opencode
// keys its per-provider behaviour off the npm package and the provider id
// (docs/opencode-contract.md#strict-flag), so a short name must become the package that carries
// that behaviour, never silently the neutral one.
import { closestMatch } from "../did-you-mean.ts"
import { ToolTesterError } from "../errors.ts"
import { PROVIDER_PACKAGES } from "./provider-packages.ts"

export { PROVIDER_PACKAGES }

/**
 * Other names for those providers, so that one list serves the CLI, the matchers and the docs:
 * the provider lint's names (`moonshot`, `bedrock`, `gemini-gateway`: a Gemini model behind an
 * OpenAI-compatible gateway such as OpenRouter) and what people call them (`gemini`, `kimi`).
 */
const PROVIDER_ALIASES: Readonly<Record<string, string>> = {
  gemini: "google",
  vertex: "google-vertex",
  moonshot: "moonshotai",
  kimi: "moonshotai",
  bedrock: "amazon-bedrock",
  "gemini-gateway": "openrouter",
}

/** Every provider name tool-tester takes, short names then aliases (for messages and did-you-mean). */
export const PROVIDER_NAMES: readonly string[] = [...Object.keys(PROVIDER_PACKAGES), ...Object.keys(PROVIDER_ALIASES)]

/**
 * The npm package `--provider` names: a short name's package, or the text itself when it is a
 * package name (scoped, like `@ai-sdk/openai`, or a community provider, like `ollama-ai-provider`).
 * Anything else is a usage error with the closest short name and the accepted ones.
 */
export function providerPackage(value: string): string {
  const lower = value.toLowerCase()
  const short = PROVIDER_PACKAGES[PROVIDER_ALIASES[lower] ?? lower]
  if (short !== undefined) return short
  if (/^@[a-z0-9][\w.-]*\/[\w.-]+(\/[\w.-]+)?$/i.test(value) || /^[a-z0-9][\w.-]*provider$/i.test(value)) return value
  const names = PROVIDER_NAMES
  const match = closestMatch(value, names)
  const suggestion = match === undefined ? "" : `did you mean ${match}? `
  throw new ToolTesterError(
    "USAGE",
    `--provider ${value} is not a provider name: ${suggestion}use one of ${names.join(", ")}, or the provider's npm package (such as @ai-sdk/openai)`,
    { data: { provider: value, accepted: names, ...(match === undefined ? {} : { suggestion: match }) } },
  )
}
