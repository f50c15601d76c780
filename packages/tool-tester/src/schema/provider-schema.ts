// The provider-specific rewrites opencode applies to every tool schema just before a request
// (`ProviderTransform.schema`, docs/opencode-contract.md#provider-fixes), and the `strict` flag it
// sets on tools (docs/opencode-contract.md#strict-flag).
import { described } from "../_described.ts"
import { isRecord } from "../_is-record.ts"
import { ToolTesterError } from "../errors.ts"
import { sanitizeGeminiSchema } from "./gemini-schema.ts"
import { sanitizeMoonshotSchema } from "./moonshot-schema.ts"
import { sanitizeOpenAISchema } from "./openai-schema.ts"

/** What the fixes depend on: the model's AI SDK package, provider id and provider-side model id. */
export type SchemaModel = { npm: string; providerID: string; modelID: string }

/**
 * The schema as opencode sends it to `model`, after, in this order: the OpenAI sanitiser,
 * the Moonshot/Kimi fixes and the Gemini fixes, each when it applies. The input is never changed;
 * it is returned itself when no fix applies (opencode then sends it as it is).
 */
export function providerSchema(schema: Record<string, unknown>, model: SchemaModel): Record<string, unknown> {
  checkModel(model)
  let result: unknown = schema
  // "@ai-sdk/azure" too: opencode's source copies disagree on it, but the 1.18.34 binary,
  // driven with an Azure provider, sent byte-for-byte the same sanitised schemas as with OpenAI.
  if (model.npm === "@ai-sdk/openai" || model.npm === "@ai-sdk/azure") result = sanitizeOpenAISchema(result)
  if (model.providerID === "moonshotai" || model.modelID.toLowerCase().includes("kimi")) {
    result = sanitizeMoonshotSchema(result)
  }
  if (model.providerID === "google" || model.modelID.includes("gemini")) result = sanitizeGeminiSchema(result)
  return result as Record<string, unknown>
}

/** The `strict` flag opencode puts on every tool for this AI SDK package: `false` for OpenAI-style APIs (Codex parity). */
export function strictFlag(npm: string): false | undefined {
  return npm === "@ai-sdk/openai" || npm === "@ai-sdk/azure" || npm === "@ai-sdk/amazon-bedrock/mantle"
    ? false
    : undefined
}

/** providerSchema is public: a model it cannot read is USAGE naming it, not a TypeError from inside. */
function checkModel(model: unknown): void {
  const fields = ["npm", "providerID", "modelID"] as const
  const missing = isRecord(model) ? fields.find((field) => typeof model[field] !== "string") : undefined
  if (isRecord(model) && missing === undefined) return
  throw new ToolTesterError(
    "USAGE",
    `providerSchema's model must be { npm, providerID, modelID }, three strings such as { npm: "@ai-sdk/openai", providerID: "openai", modelID: "gpt-5" }, not ${isRecord(model) ? `an object whose ${missing} is ${described(model[missing as string])}` : described(model)}`,
    { data: { option: isRecord(model) ? missing : "model" } },
  )
}
