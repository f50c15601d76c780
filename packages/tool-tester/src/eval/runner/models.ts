// Which of the asked models can run, from what the server knows: `GET /config/providers` (the
// providers opencode can use, with their models) and `GET /provider` (every provider of its
// catalogue, and which are connected). A model of a connected provider runs; one whose provider
// opencode knows but has no key for runs into AUTH_ERROR trials (graded, like a provider that
// refuses the key); any other id is a problem (EVAL_MODEL_UNKNOWN, with did-you-mean), and the
// other models still run.

import { closestMatch } from "../../did-you-mean.ts"

export interface ProviderInfo {
  id: string
  name?: string
  env?: string[]
  models: Record<
    string,
    { id?: string; name?: string; cost?: { input?: number; output?: number }; api?: { id?: string; npm?: string } }
  >
}

export interface ModelPlan {
  /** `provider/model`. */
  id: string
  providerID: string
  modelID: string
  /** The provider states prices for it (else a trial's cost is unknown, not 0). */
  priced: boolean
  /** Its AI SDK package and the provider's own id of the model (what opencode's schema fixes go by). */
  api: { npm: string; id: string }
  /** Set when the model cannot be prompted: its trials all end with this error. */
  error?: { code: string; message: string }
}

export interface ResolvedModels {
  models: ModelPlan[]
  problems: Array<{ code: string; model?: string; message: string }>
}

export function resolveModels(options: {
  requested: string[]
  /** The project's configured `model` (opencode's merged config). */
  configured: string | undefined
  usable: ProviderInfo[]
  catalogue: ProviderInfo[]
}): ResolvedModels {
  const problems: ResolvedModels["problems"] = []
  const known = new Map<string, ModelPlan>()
  for (const provider of options.usable) {
    for (const [key, model] of Object.entries(provider.models)) {
      const cost = model.cost
      known.set(`${provider.id}/${key}`, {
        id: `${provider.id}/${key}`,
        providerID: provider.id,
        modelID: key,
        priced: (cost?.input ?? 0) > 0 || (cost?.output ?? 0) > 0,
        api: { npm: model.api?.npm ?? "", id: model.api?.id ?? key },
      })
    }
  }
  const requested = [...new Set(options.requested)]
  if (requested.length === 0) {
    if (options.configured === undefined || options.configured === "") {
      problems.push({
        code: "EVAL_NO_MODEL",
        message: `No model is configured for this project (opencode.json "model"): name one with --model provider/model${knownList(known)}.`,
      })
      return { models: [], problems }
    }
    requested.push(options.configured)
  }
  const models: ModelPlan[] = []
  for (const id of requested) {
    const plan = known.get(id)
    if (plan !== undefined) {
      models.push(plan)
      continue
    }
    const slash = id.indexOf("/")
    const providerID = slash > 0 ? id.slice(0, slash) : id
    const modelID = slash > 0 ? id.slice(slash + 1) : ""
    const catalogued = options.catalogue.find((provider) => provider.id === providerID)
    if (catalogued !== undefined && modelID in catalogued.models && !options.usable.some((p) => p.id === providerID)) {
      const keys = catalogued.env ?? []
      const how =
        keys.length > 0 ? `set ${keys.join(" or ")}, or run \`opencode auth login\`` : "run `opencode auth login`"
      models.push({
        id,
        providerID,
        modelID,
        priced: false,
        api: { npm: catalogued.models[modelID]?.api?.npm ?? "", id: catalogued.models[modelID]?.api?.id ?? modelID },
        error: {
          code: "AUTH_ERROR",
          message: `opencode has no credentials for the provider ${providerID}: ${how}.`,
        },
      })
      continue
    }
    const match = closestMatch(id, known.keys())
    const suggestion = match === undefined ? "" : `; did you mean "${match}"?`
    problems.push({
      code: "EVAL_MODEL_UNKNOWN",
      model: id,
      message: `opencode knows no model "${id}"${suggestion}${match === undefined ? knownList(known) : ""}`,
    })
  }
  return { models, problems }
}

// --- internal ---

function knownList(known: Map<string, ModelPlan>): string {
  const ids = [...known.keys()].sort()
  if (ids.length === 0) return " (opencode knows no model here: configure a provider, or run `opencode auth login`)"
  const shown = ids.slice(0, 12).join(", ")
  return ` (opencode knows: ${shown}${ids.length > 12 ? `, and ${ids.length - 12} more` : ""})`
}
