import type { ModelSelection } from "./builtins.ts"
import { DEFAULT_MODEL } from "./builtins.ts"
import { providerPackage } from "./provider-names.ts"

/**
 * The model `--provider NAME` and `--model ID` select (a short name such as `openai` is its npm
 * package, see provider-names.ts). opencode keys its fixes off three values
 * (docs/opencode-contract.md#provider-fixes): the npm package (OpenAI sanitiser, `strict: false`),
 * the provider id (`google` → Gemini fixes, `moonshotai` → Moonshot fixes, `opencode` → websearch)
 * and the model id (`gpt-*` → apply_patch, `*gemini*`, `*kimi*`). The command line only names the
 * package, so the provider id is the one opencode's catalogue gives that package's provider:
 * `@ai-sdk/<id>` → `<id>` (`@ai-sdk/google` → `google`, `@ai-sdk/moonshotai` → `moonshotai`); for
 * `@ai-sdk/openai-compatible`, a custom provider whose id the user chooses, it stays the neutral
 * `mock`, so only the model id can trigger a fix, as with a custom provider in opencode.
 */
export function modelSelection(options: { provider?: string | undefined; model?: string | undefined }): ModelSelection {
  const npm = options.provider === undefined ? DEFAULT_MODEL.npm : providerPackage(options.provider)
  // `gemini-gateway` stands for a Gemini model behind a gateway: without --model, that model.
  const modelID =
    options.model ??
    (options.provider?.toLowerCase() === "gemini-gateway" ? "google/gemini-2.5-pro" : DEFAULT_MODEL.modelID)
  return { npm, providerID: providerIdOf(npm), modelID }
}

// --- internal ---

function providerIdOf(npm: string): string {
  if (npm === DEFAULT_MODEL.npm) return DEFAULT_MODEL.providerID
  // Claude on Vertex AI is a provider of its own in opencode's catalogue.
  if (npm === "@ai-sdk/google-vertex/anthropic") return "google-vertex-anthropic"
  const aiSdk = /^@ai-sdk\/([^/]+)/.exec(npm)
  if (aiSdk) return aiSdk[1]!
  // Community packages: `@openrouter/ai-sdk-provider` → `openrouter`, `ollama-ai-provider` → `ollama`.
  const scoped = /^@([^/]+)\//.exec(npm)
  if (scoped) return scoped[1]!
  return npm.replace(/-ai-provider$|-ai-sdk-provider$|-provider$/, "")
}
