// The model the page's calls are made for, as `run --provider`, `--model` and `--model-input` choose
// it: it decides what the model's next request carries of a result with attachments (the result's
// "With the attachments, the model's request carries" section), and whether the provider can send
// it at all. Kept for the page, not per tool: one choice, every tool's calls.
import { MODEL_MODALITIES, type ModelModality } from "../../src/pipeline/model-modalities.ts"
import { PROVIDER_PACKAGES } from "../../src/pipeline/provider-packages.ts"
import { html } from "./html.ts"
import type { CallModel } from "./types.ts"

/** The model of a call made without a choice (openai-compatible's mock model, text only). */
const DEFAULT_PROVIDER = "openai-compatible"
const DEFAULT_MODEL_ID = "mock-model"

/** What the picker shows for a choice: the default when there is none. */
export function modelLabel(model: CallModel | undefined): string {
  if (model === undefined) return `${DEFAULT_PROVIDER} / ${DEFAULT_MODEL_ID}`
  const input = model.input.length === 0 ? "" : ` (reads ${model.input.join(", ")})`
  return `${model.provider} / ${model.modelID}${input}`
}

export function ModelPicker(props: {
  model: CallModel | undefined
  onChange: (model: CallModel | undefined) => void
}): unknown {
  const current: CallModel = props.model ?? { provider: DEFAULT_PROVIDER, modelID: DEFAULT_MODEL_ID, input: [] }
  // Back to no choice when it is the default again: calls then look as they did before any.
  const change = (next: Partial<CallModel>) => {
    const model = { ...current, ...next }
    const isDefault =
      model.provider === DEFAULT_PROVIDER && model.modelID === DEFAULT_MODEL_ID && model.input.length === 0
    props.onChange(isDefault ? undefined : model)
  }
  const toggle = (modality: ModelModality, on: boolean) =>
    change({ input: MODEL_MODALITIES.filter((known) => (known === modality ? on : current.input.includes(known))) })
  return html`<details class="model-picker" data-testid="model-picker">
    <summary>Model: <span data-testid="model-label">${modelLabel(props.model)}</span></summary>
    <label>Provider
      <select data-testid="model-provider" value=${current.provider}
        onChange=${(event: Event) => change({ provider: (event.target as HTMLSelectElement).value })}>
        ${Object.keys(PROVIDER_PACKAGES).map((name) => html`<option value=${name}>${name}</option>`)}
      </select>
    </label>
    <label>Model id
      <input data-testid="model-id" value=${current.modelID} maxlength="200"
        onChange=${(event: Event) => change({ modelID: (event.target as HTMLInputElement).value.trim() || DEFAULT_MODEL_ID })} />
    </label>
    <fieldset>
      <legend>Reads besides text</legend>
      ${MODEL_MODALITIES.map(
        (modality) => html`<label><input type="checkbox" data-testid=${`model-input-${modality}`}
          checked=${current.input.includes(modality)}
          onChange=${(event: Event) => toggle(modality, (event.target as HTMLInputElement).checked)} /> ${modality}</label>`,
      )}
    </fieldset>
    <div class="hint">As run --provider, --model and --model-input: what the model's next request carries of a result with attachments, for every tool's calls from this page.</div>
  </details>`
}
