import { safeStringify } from "../_json-safe.ts"
import { pristineStringify } from "../_pristine.ts"
import { chooseAgent } from "../config/agent.ts"
import { MAX_FRAME_BYTES } from "../engine-client/frames.ts"
import { closestMatch } from "../did-you-mean.ts"
import { keptForModel } from "../pipeline/builtins.ts"
import { liveDefinition } from "../pipeline/live.ts"
import type { Reached } from "../engine-client/protocol.ts"
import type { RunInput } from "./task.ts"
import { getToolSchemas } from "../list-tools.ts"
import { defaultDataDirectory } from "../pipeline/data-directory.ts"
import type { ThrownDetails } from "../pipeline/normalize-result.ts"
import { agentRules } from "../pipeline/permissions.ts"
import { resolveCall } from "../pipeline/repair-call.ts"
import { preparedTools } from "../pipeline/tool-list.ts"
import { settleEveryCall } from "../project-engine/local-engine.ts"
import { callTool, runTool } from "../run-tool.ts"
import { toolJsonSchema } from "../schema/tool-json-schema.ts"
import type { Diagnostic, RunOptions, RunResult, ToolProject } from "../types.ts"
import { argsFromPairs } from "./key-value-args.ts"
import { pairWarnings } from "./pair-warnings.ts"
import { diagnosticOf, loadProject } from "./task-project.ts"

/**
 * A run as `run --json` prints it (the CLI adds `console`): the library's result without the
 * metadataCalls record, absent values written as null so every key is always present.
 */
export type RunJson = Omit<RunResult, "metadataCalls" | "attachments" | "outputPath" | "error"> & {
  attachments: unknown[] | null
  outputPath: string | null
  error?: { code: string; message: string; thrown?: ThrownDetails }
  /** Only when the name matched no tool (and the call was rerouted): the closest tool id, or null when none is close. */
  suggestion?: string | null
  /**
   * Only when the name is a tool of the project that a permission rule denies (opencode.json's
   * `permission`, the agent's, or --deny): opencode leaves it out of the list, so the call was
   * rerouted. `file`: where the tool is defined.
   */
  denied?: { tool: string; file: string }
  /**
   * Only when the name is a tool of the project that opencode's per-model filter leaves out for
   * this model (a custom edit or write for a GPT model, apply_patch for the others, websearch
   * outside the provider opencode), so the call was rerouted. `file`: where the tool is defined.
   */
  hidden?: { tool: string; file: string }
}

/** `file`: the file of the tool that ran (for doctor's findings; not part of run's JSON). */
export type RunPayload = { result: RunJson; diagnostics: Diagnostic[]; file?: string }

/**
 * Loads the project, reports which tool the call reaches, and runs it through opencode's pipeline:
 * `--raw-args` through repair (wrong case fixed, unparsable JSON rerouted to `invalid`), the other
 * forms with parsed arguments. Diagnostics say whether opencode could have offered any tool.
 */
export async function runTask(input: RunInput, loaded: (reached: Reached | undefined) => void): Promise<RunPayload> {
  const project = await loadProject(input)
  const diagnostics = [...project.diagnostics]
  const permissions = input.ask === undefined ? { deny: input.deny } : { deny: input.deny, ask: input.ask }
  const schemas = await getToolSchemas(project, { model: input.model, permissions })
  if (!schemas.success) diagnostics.push(diagnosticOf(schemas.error))

  const dataDirectory = input.dataDirectory ?? defaultDataDirectory()
  const { reached, suggestion, denied, hidden } = reach(project, input, dataDirectory)
  const options: RunOptions = {
    model: input.model,
    validate: input.validate,
    permissions,
    dataDirectory,
    timeoutMs: input.timeoutMs,
  }
  if (input.agent !== undefined) {
    options.agent = input.agent
    const chosen = chooseAgent(project.config, input.agent)
    if (chosen.success && chosen.warning !== undefined) {
      diagnostics.push({
        code: "AGENT_FALLBACK",
        severity: "warning",
        message: `--agent: ${chosen.warning}, as opencode run does: the tool gets agent "${chosen.agent}"`,
      })
    }
  }
  if (input.modelInput !== undefined) options.modelInput = input.modelInput
  if (input.maxLines !== undefined) options.maxLines = input.maxLines
  if (input.maxBytes !== undefined) options.maxBytes = input.maxBytes

  const args = input.args
  let parsed: unknown = {}
  if (args.form === "json") parsed = args.value
  if (args.form === "pairs") {
    const schema = schemaOf(project, reached.id)
    parsed = argsFromPairs(args.pairs, schema)
    // --validate refuses such a call itself, with zod's words.
    if (reached.id !== "invalid" && !input.validate)
      diagnostics.push(...pairWarnings(reached.id, Object.keys(parsed as object), schema))
  }
  loaded({ ...reached, ...sentArgs(project, input, parsed, dataDirectory) })
  // One call: it waits the whole 10 ms for what may escape after it returns (run-tool.ts).
  settleEveryCall()
  const result =
    args.form === "raw"
      ? await callTool(project, { name: input.name, rawArguments: args.text }, options)
      : await runTool(project, input.name, parsed, options)
  const json = runJson(result)
  const file = project.tools.findLast((tool) => tool.id === result.id)?.file
  return {
    result: {
      ...json,
      ...(suggestion === undefined ? {} : { suggestion }),
      ...(denied === undefined ? {} : { denied }),
      ...(hidden === undefined ? {} : { hidden }),
    },
    diagnostics,
    ...(file === undefined ? {} : { file }),
  }
}

// --- internal ---

/**
 * The tool opencode's repair sends the call to, for the report when the tool never returns; and
 * for a name that matches no tool (rerouted to invalid), the closest tool id as a suggestion.
 */
function reach(
  project: ToolProject,
  input: RunInput,
  dataDirectory: string,
): {
  reached: Reached
  suggestion?: string | null
  denied?: { tool: string; file: string }
  hidden?: { tool: string; file: string }
} {
  const rules = agentRules({ config: project.config.permission, overrides: { deny: input.deny }, dataDirectory })
  const rawArguments = input.args.form === "raw" ? input.args.text : "{}"
  const prepared = preparedTools(project, input.model, rules)
  const resolved = resolveCall({ name: input.name, rawArguments }, prepared)
  const reached = {
    name: input.name,
    id: resolved.kind === "run" ? resolved.id : resolved.kind === "failed" ? input.name : "invalid",
  }
  const ids = prepared.map((entry) => entry.id).filter((id) => id !== "invalid")
  const known = input.name === "invalid" || ids.includes(input.name) || ids.includes(input.name.toLowerCase())
  if (known) return { reached }
  // Defined, but left out of the list by the per-model filter or a permission rule: that is the
  // reason, not a typo.
  const defined = project.tools.findLast((tool) => tool.id === input.name || tool.id === input.name.toLowerCase())
  if (defined) {
    const tool = { tool: defined.id, file: defined.file }
    return keptForModel(defined.id, input.model)
      ? { reached, suggestion: null, denied: tool }
      : { reached, suggestion: null, hidden: tool }
  }
  return { reached, suggestion: closestMatch(input.name, ids) ?? null }
}

/**
 * The tool the call reaches and the arguments it sends, as the library reports them for a call that
 * never answers (engine-client/unreached-result.ts): for the CLI's report when the tool ends the
 * engine or keeps it busy past the timeout. Parsed arguments holding a `__proto__` key reach
 * `invalid`, as the model's text holding them does. The arguments are left out when the text could
 * make the `loaded` message longer than the channel carries (each character is at most 3 bytes
 * there, escaped or not).
 */
function sentArgs(
  project: ToolProject,
  input: RunInput,
  parsed: unknown,
  dataDirectory: string,
): { id: string; args?: string } {
  // JSON.stringify as it was before any user code ran: a tool file may have replaced it.
  const rawArguments = input.args.form === "raw" ? input.args.text : (pristineStringify(parsed) ?? "{}")
  const rules = agentRules({ config: project.config.permission, overrides: { deny: input.deny }, dataDirectory })
  const resolved = resolveCall({ name: input.name, rawArguments }, preparedTools(project, input.model, rules))
  const id = resolved.kind === "run" ? resolved.id : resolved.kind === "failed" ? input.name : "invalid"
  const text = safeStringify(resolved.kind === "failed" ? rawArguments : resolved.args)
  return text.length > MAX_FRAME_BYTES / 4 ? { id } : { id, args: text }
}

/** The JSON Schema of the tool that will run, to read key=value pairs with (none for built-ins). */
function schemaOf(project: ToolProject, id: string): unknown {
  if (id === "invalid") return { properties: { tool: { type: "string" }, error: { type: "string" } } }
  const tool = project.tools.findLast((candidate) => candidate.id === id)
  if (!tool) return undefined
  const converted = toolJsonSchema(liveDefinition(tool).args)
  return converted.success ? converted.value : undefined
}

function runJson(result: RunResult): RunJson {
  // Overriding in place keeps the keys in RunResult's order, which is the documented JSON order.
  const {
    metadataCalls: _metadataCalls,
    error,
    ...json
  } = {
    ...result,
    attachments: result.attachments ?? null,
    outputPath: result.outputPath ?? null,
  }
  return error ? { ...json, error } : json
}
