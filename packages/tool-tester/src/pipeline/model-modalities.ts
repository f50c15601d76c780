// What a model may take besides text, as opencode's model capabilities name them (`modalities.input`
// in opencode.json): `run --model-input`, `runTool`'s `modelInput`, and dev's model picker. No
// imports, so that dev's page can offer the same list.

/** An input a model may take besides text. */
export type ModelModality = "image" | "audio" | "video" | "pdf"

export const MODEL_MODALITIES: readonly ModelModality[] = ["image", "audio", "video", "pdf"]
