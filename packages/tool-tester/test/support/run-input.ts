// The `run` task's input for the one tool named "tool" in a project, with nothing else asked of it:
// what the engine tests send straight to an engine (runTaskInEngine), without the CLI in between.
import type { RunInput } from "../../src/tasks/task.ts"
import { DEFAULT_MODEL } from "../../src/pipeline/builtins.ts"

export function toolRunInput(directory: string, timeoutMs: number): RunInput {
  return {
    directory,
    global: false,
    plugins: [],
    model: DEFAULT_MODEL,
    name: "tool",
    args: { form: "none" },
    validate: false,
    deny: [],
    maxLines: undefined,
    maxBytes: undefined,
    timeoutMs,
    dataDirectory: undefined,
  }
}
