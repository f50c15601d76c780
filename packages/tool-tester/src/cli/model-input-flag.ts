// `run --model-input image,pdf`: what the model takes besides text, as opencode.json's
// `modalities.input` lists it (`text` may be given and is left out: every model takes text).
import { closestMatch } from "../did-you-mean.ts"
import { ToolTesterError } from "../errors.ts"
import { MODEL_MODALITIES, type ModelModality } from "../pipeline/model-messages.ts"

export function modelInputFlag(value: string): ModelModality[] {
  const names = value
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== "" && name !== "text")
  const chosen: ModelModality[] = []
  for (const name of names) {
    const modality = MODEL_MODALITIES.find((known) => known === name)
    if (modality === undefined) {
      const close = closestMatch(name, [...MODEL_MODALITIES])
      const hint = close === undefined ? "" : ` (did you mean ${close}?)`
      throw new ToolTesterError(
        "USAGE",
        `--model-input: "${name}" is no model input${hint}; give some of ${MODEL_MODALITIES.join(", ")}, comma-separated`,
      )
    }
    if (!chosen.includes(modality)) chosen.push(modality)
  }
  return chosen
}
