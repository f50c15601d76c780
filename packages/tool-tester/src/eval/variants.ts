// `tool-tester eval --variants FILE` (docs/evals.md#variants-side-by-side): other descriptions of
// the project's tools, to run the same cases on each beside the current ones. The file is JSON:
// `{ "NAME": { "TOOL_ID": { "description": "...", "args": { "ARG": "its description" } } } }`.
// A variant changes only what the model sees (the description and the arguments' descriptions
// opencode sends, through the guard plugin's `tool.definition` hook), never the tool's code.

import { readFileSync } from "node:fs"
import { didYouMean } from "../did-you-mean.ts"
import { sourceFileProblem } from "../discovery/_source-file.ts"
import { ToolTesterError } from "../errors.ts"
import type { ToolSnapshot } from "../eval-cases/types.ts"
import { isRecord } from "../_is-record.ts"

/** What one variant changes of one tool. */
export interface ToolVariant {
  description?: string
  /** Argument name -> its description. */
  args?: Record<string, string>
}

/** Variant name -> tool id -> what it changes. */
export type EvalVariants = Record<string, Record<string, ToolVariant>>

/** The name of the run on the descriptions as they are. */
export const CURRENT_VARIANT = "current"

/** Reads and checks a variants file against the project's tools; a problem throws EVAL_VARIANTS_INVALID with one line. */
export function readVariants(file: string, tools: readonly ToolSnapshot[]): EvalVariants {
  const fail = (message: string) => new ToolTesterError("EVAL_VARIANTS_INVALID", `--variants ${file}: ${message}`)
  const unreadable = sourceFileProblem(file)
  if (unreadable !== undefined) throw fail(`${unreadable}: pass a JSON file`)
  let text: string
  try {
    text = readFileSync(file, "utf8")
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw fail(code === "ENOENT" ? "no such file" : `cannot be read (${code ?? String(error)})`)
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw fail(`not JSON (${(error as Error).message})`)
  }
  const shape = '{ "NAME": { "TOOL_ID": { "description": "...", "args": { "ARG": "..." } } } }'
  if (!isRecord(value) || Object.keys(value).length === 0) throw fail(`must be an object of variants: ${shape}`)
  const ids = tools.map((tool) => tool.id)
  const variants: EvalVariants = {}
  for (const [name, variant] of Object.entries(value)) {
    if (name === CURRENT_VARIANT)
      throw fail(`"${CURRENT_VARIANT}" names the descriptions as they are; give the variant another name`)
    if (name.startsWith("without "))
      throw fail(`"${name}": names starting with "without " are --without's runs; give the variant another name`)
    if (name.trim() === "" || [...name].some((char) => char.charCodeAt(0) < 0x20))
      throw fail(`${JSON.stringify(name)} is not a variant name (one line of text)`)
    if (!isRecord(variant) || Object.keys(variant).length === 0)
      throw fail(`${name}: must map tool ids to { "description", "args" }`)
    variants[name] = {}
    for (const [id, change] of Object.entries(variant)) {
      const tool = tools.find((candidate) => candidate.id === id)
      if (tool === undefined) {
        throw fail(
          `${name}: no tool "${id}" in this project${didYouMean(id, ids)} (tools: ${ids.join(", ") || "none"})`,
        )
      }
      if (!isRecord(change)) throw fail(`${name}.${id}: must be { "description": "...", "args": { ... } }`)
      const unknownKey = Object.keys(change).find((key) => key !== "description" && key !== "args")
      if (unknownKey !== undefined) {
        throw fail(
          `${name}.${id}: unknown key "${unknownKey}"${didYouMean(unknownKey, ["description", "args"])} (a variant sets "description" and "args")`,
        )
      }
      const toolVariant: ToolVariant = {}
      if (change["description"] !== undefined) {
        if (typeof change["description"] !== "string" || change["description"].trim() === "") {
          throw fail(`${name}.${id}.description: must be a non-empty string`)
        }
        toolVariant.description = change["description"]
      }
      if (change["args"] !== undefined) {
        if (!isRecord(change["args"])) throw fail(`${name}.${id}.args: must map argument names to their descriptions`)
        const known = argumentNames(tool)
        toolVariant.args = {}
        for (const [arg, description] of Object.entries(change["args"])) {
          if (!known.includes(arg)) {
            throw fail(
              `${name}.${id}.args: ${id} has no argument "${arg}"${didYouMean(arg, known)} (arguments: ${known.join(", ") || "none"})`,
            )
          }
          if (typeof description !== "string")
            throw fail(`${name}.${id}.args.${arg}: must be its description (a string)`)
          toolVariant.args[arg] = description
        }
      }
      variants[name][id] = toolVariant
    }
  }
  return variants
}

// --- internal ---

function argumentNames(tool: ToolSnapshot): string[] {
  const properties = isRecord(tool.parameters) ? tool.parameters["properties"] : undefined
  return isRecord(properties) ? Object.keys(properties) : []
}
