import path from "node:path"
import { ToolTesterError } from "../../errors.ts"
import { writeStarterCases } from "../../eval-cases/index.ts"
import type { CliIO } from "../_command.ts"
import { EXIT_OK } from "../exit-codes.ts"
import { toolTesterCommand } from "../invocation.ts"
import { noModelProblem } from "../../eval/configured-model.ts"
import { listProjectTools } from "../../eval/project-tools.ts"

/**
 * `tool-tester eval --init`: one starter case file per tool in `.opencode/evals/`, from its description
 * and schema (no model). Never overwrites a file; writes nothing when a tool file fails to load.
 */
export async function writeStarterEvals(
  directory: string,
  json: boolean,
  io: CliIO,
  /** The `--dir` flag and the run's options as given (` --dir ... --runs 3`, or empty), for the command printed. */
  flags: string,
  /** Whether those options name a model (`--model`): then no opencode.json needs to. */
  modelGiven = false,
): Promise<number> {
  const { tools, error } = await listProjectTools(directory)
  if (error !== undefined) throw new ToolTesterError("IMPORT_FAILED", `${error}; fix it first (no cases written)`)
  if (tools.length === 0) {
    throw new ToolTesterError(
      "USAGE",
      `no custom or plugin tool in ${directory}: nothing to evaluate (add one with npm create tool)`,
    )
  }
  const { written, kept } = await writeStarterCases(directory, tools)
  if (json) {
    io.write(`${JSON.stringify({ written, kept })}\n`)
    return EXIT_OK
  }
  const shown = (file: string): string => path.relative(io.cwd, file) || file
  for (const file of written) io.write(`wrote ${shown(file)}\n`)
  for (const file of kept) io.write(`kept ${shown(file)} (it exists; not overwritten)\n`)
  const command = `${toolTesterCommand(io)} eval${flags}`
  if (modelGiven) {
    io.write(`Edit the prompts and expected arguments, then run them: ${command}\n`)
    return EXIT_OK
  }
  // Without a model in any opencode.json, `eval` alone stops at EVAL_NO_MODEL: the step says so.
  io.write(
    noModelProblem(directory, io.env) === undefined
      ? `Edit the prompts and expected arguments, then run them on the model opencode uses for this project (its config, or a plugin that sets it): ${command}\n` +
          "(or on others: add --model provider/model for each, with ids as `opencode models` prints them)\n"
      : `Edit the prompts and expected arguments. No opencode.json here names a model: list the ones you can use with \`opencode models\`, then run the cases on one: ${command} --model <provider/model>\n`,
  )
  return EXIT_OK
}
