// A model id as opencode takes it: `provider/model`, the provider's id before the first `/` and the
// model's after it (which may hold more of them: `openrouter/anthropic/claude-sonnet-4-5`).
// Checked before anything starts: an id of another form (`gpt-5`, `openai/`) can name no model, and
// was reported as EVAL_MODEL_UNKNOWN only once opencode had started.
import { shellWord } from "../_shell-quote.ts"
import { ToolTesterError } from "../errors.ts"

/** Whether `id` has the form `provider/model` (both parts non-empty). */
export function isModelId(id: string): boolean {
  const slash = id.indexOf("/")
  return slash > 0 && id.slice(0, slash).trim() !== "" && id.slice(slash + 1).trim() !== ""
}

/** USAGE for the first `--model` value that is not `provider/model`. */
export function checkModelIds(ids: readonly string[]): void {
  const wrong = ids.find((id) => !isModelId(id))
  if (wrong === undefined) return
  throw new ToolTesterError(
    "USAGE",
    `--model ${shellWord(wrong)} is not a model id: give provider/model, as \`opencode models\` prints them (such as anthropic/claude-sonnet-4-5)`,
    { data: { option: "model", model: wrong } },
  )
}
