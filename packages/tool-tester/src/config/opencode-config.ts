import { existsSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import path from "node:path"
import type { ParseError } from "jsonc-parser"
import { isRecord } from "../_is-record.ts"
import { sourceFileProblem } from "../discovery/_source-file.ts"
import type { ConfigDirectory } from "../discovery/config-dirs.ts"
import { walkUp } from "../discovery/config-dirs.ts"
import type { Result } from "../errors.ts"
import { ToolTesterError } from "../errors.ts"
import { describeValue, type SettingProblem } from "./_config-value.ts"
import { attachmentProblem } from "./attachment-image.ts"
import type { PermissionConfig } from "./permission.ts"

/** The parts of opencode.json the tool pipeline reads. Everything else is kept as it is. */
export type OpencodeConfig = {
  permission?: PermissionConfig
  tool_output?: { max_lines?: number; max_bytes?: number }
  attachment?: { image?: { auto_resize?: boolean; max_width?: number; max_height?: number; max_base64_bytes?: number } }
  plugin?: Array<string | [string, Record<string, unknown>]>
  [key: string]: unknown
}

/** A config file that was read, and the `plugin` entries it listed (relative specs resolve against it). */
export type ConfigSource = { file: string; plugins: Array<string | [string, Record<string, unknown>]> }

export type LoadedConfig = { config: OpencodeConfig; sources: ConfigSource[] }

/**
 * Merges opencode.json / opencode.jsonc files in opencode's order
 * (docs/opencode-contract.md#opencodejson-merging): the global config dir's, then the project files
 * from the worktree down to the project dir (farthest first), then each `.opencode` folder's in
 * scan order. Later files win, objects merge deeply.
 */
export function loadOpencodeConfig(options: {
  directory: string
  worktree: string
  directories: readonly ConfigDirectory[]
}): Result<LoadedConfig> {
  const files: string[] = []
  const global = options.directories.find((entry) => entry.kind === "global")
  if (global) files.push(...configFilesIn(global.path, ["config.json", "opencode.json", "opencode.jsonc"]))
  for (const folder of walkUp(options.directory, options.worktree).reverse()) {
    files.push(...configFilesIn(folder, ["opencode.json", "opencode.jsonc"]))
  }
  for (const entry of options.directories) {
    if (entry.kind !== "global") files.push(...configFilesIn(entry.path, ["opencode.json", "opencode.jsonc"]))
  }
  let config: OpencodeConfig = {}
  const sources: ConfigSource[] = []
  for (const file of files) {
    const parsed = readConfigFile(file)
    if (!parsed.success) return parsed
    sources.push({ file, plugins: Array.isArray(parsed.value.plugin) ? parsed.value.plugin : [] })
    try {
      config = mergeConfig(config, parsed.value)
    } catch (error) {
      // Merging recurses once per level, as parsing does.
      if (!(error instanceof RangeError)) throw error
      return {
        success: false,
        error: new ToolTesterError("CONFIG_INVALID", `${file}: it is nested too deeply to merge; flatten it`, {
          data: { file },
        }),
      }
    }
  }
  return { success: true, value: { config, sources } }
}

/** Reads one opencode.json[c]: comments and trailing commas allowed, as opencode allows them. */
export function readConfigFile(file: string): Result<OpencodeConfig> {
  const unreadable = sourceFileProblem(file)
  if (unreadable !== undefined) {
    return {
      success: false,
      error: new ToolTesterError("CONFIG_INVALID", `${file}: ${unreadable}; make it a JSON file`, { data: { file } }),
    }
  }
  // A byte order mark before the JSON: opencode reads such a file (checked on the 1.18.34 binary).
  const text = readFileSync(file, "utf8").replace(/^\uFEFF/, "")
  const errors: ParseError[] = []
  let value: unknown
  let tooDeep = false
  try {
    value = parseJsonc(text, errors)
  } catch (error) {
    // The parser recurses once per level: a file nested tens of thousands of levels deep (or with
    // that many unclosed brackets) overflows the stack. No real config comes near.
    if (!(error instanceof RangeError)) throw error
    tooDeep = true
  }
  const first = errors[0]
  if (tooDeep || first || typeof value !== "object" || value === null || Array.isArray(value)) {
    const reason = tooDeep
      ? "it is nested too deeply to read"
      : first
        ? `${jsoncParser().printParseErrorCode(first.error)} at offset ${first.offset}`
        : "it is not a JSON object"
    return {
      success: false,
      error: new ToolTesterError(
        "CONFIG_INVALID",
        `${file}: cannot read the opencode config (${reason}); fix the file`,
        {
          data: { file },
        },
      ),
    }
  }
  const problem = configProblem(value as OpencodeConfig)
  if (problem) {
    return {
      success: false,
      error: new ToolTesterError("CONFIG_INVALID", `${file}: ${problem.message}`, {
        data: { file, ...problem.data },
      }),
    }
  }
  return { success: true, value: value as OpencodeConfig }
}

/**
 * What opencode's config schema refuses in a config object, if anything (it does not start): a
 * `plugin` entry, a `tool_output` limit or an `attachment` setting. The message says what to do;
 * `data` is the error's (docs/errors.md#config_invalid): the key, and its value, or for `plugin`
 * the problems of its entries.
 */
export function configProblem(
  config: OpencodeConfig,
): { message: string; data: { key: string; value: unknown } | { key: "plugin"; problems: string[] } } | undefined {
  const plugins = pluginProblems(config.plugin)
  if (plugins.length > 0) {
    return {
      data: { key: "plugin", problems: plugins },
      message: `opencode says "Configuration is invalid": ${plugins.join("; ")}; each plugin entry is a string (a package or a path) or a [string, { options }] pair`,
    }
  }
  const problem = toolOutputProblem(config.tool_output) ?? attachmentProblem(config.attachment)
  if (problem === undefined) return undefined
  return {
    data: { key: problem.key, value: problem.value },
    message: `${problem.message}; opencode refuses to start with it: ${problem.fix}`,
  }
}

/** Deep merge, later wins; `plugin` lists are concatenated as opencode does. */
export function mergeConfig(base: OpencodeConfig, next: OpencodeConfig): OpencodeConfig {
  const merged = deepMerge(base, next) as OpencodeConfig
  if (Array.isArray(base.plugin) && Array.isArray(next.plugin)) merged.plugin = [...base.plugin, ...next.plugin]
  return merged
}

// --- internal ---

/**
 * Plain JSON first: jsonc-parser ships only a UMD build to Node, and loading it costs more than
 * the rest of the config code (tens of milliseconds on every CLI start). Files with comments or
 * trailing commas fall back to it.
 */
function parseJsonc(text: string, errors: ParseError[]): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return jsoncParser().parse(text, errors, { allowTrailingComma: true })
  }
}

function jsoncParser(): typeof import("jsonc-parser") {
  return createRequire(import.meta.url)("jsonc-parser") as typeof import("jsonc-parser")
}

/**
 * What opencode's config schema refuses in `plugin` (observed on the 1.18.34 binary, `opencode
 * debug config`): not a list; an entry that is neither a string nor a [string, object] pair.
 */
function pluginProblems(plugin: unknown): string[] {
  if (plugin === undefined) return []
  if (!Array.isArray(plugin)) return [`plugin is ${shown(plugin)}, not a list`]
  const problems: string[] = []
  plugin.forEach((entry: unknown, index) => {
    if (typeof entry === "string") return
    if (!Array.isArray(entry)) {
      problems.push(`plugin.${index} is ${shown(entry)}, not a string or a [string, object] pair`)
      return
    }
    if (typeof entry[0] !== "string") problems.push(`plugin.${index}.0 is ${shown(entry[0])}, not a string`)
    if (typeof entry[1] !== "object" || entry[1] === null || Array.isArray(entry[1]))
      problems.push(`plugin.${index}.1 is ${shown(entry[1])}, not an object of options`)
    if (entry.length > 2) problems.push(`plugin.${index} has ${entry.length} items, not 2`)
  })
  return problems
}

function shown(value: unknown): string {
  if (value === undefined) return "missing"
  const text = JSON.stringify(value)
  return text.length > 40 ? `${text.slice(0, 37)}...` : text
}

/**
 * The truncation limits opencode reads from `tool_output`, with their defaults
 * (docs/opencode-contract.md#truncation-limits).
 */
const toolOutputLimits = { max_lines: 2000, max_bytes: 51200 } as const

/**
 * What is wrong with `tool_output`, if anything. opencode refuses to start when a limit is not a
 * number greater than 0 (0, -1 and "2" observed, docs/opencode-contract.md#tool-output-settings); a
 * fraction is refused here too, since a limit counts whole lines and bytes.
 */
function toolOutputProblem(toolOutput: unknown): SettingProblem | undefined {
  if (toolOutput === undefined) return undefined
  if (!isRecord(toolOutput)) {
    return {
      key: "tool_output",
      value: toolOutput,
      message: `tool_output is ${describeValue(toolOutput)}, but opencode requires an object such as {"max_lines": 2000, "max_bytes": 51200}`,
      fix: "make it an object, or remove it for the defaults",
    }
  }
  for (const [name, fallback] of Object.entries(toolOutputLimits)) {
    const value = toolOutput[name]
    if (value === undefined || (typeof value === "number" && Number.isInteger(value) && value > 0)) continue
    return {
      key: `tool_output.${name}`,
      value,
      message: `tool_output.${name} is ${describeValue(value)}, but opencode requires a whole number greater than 0`,
      fix: `set a positive whole number, or remove the key for the default (${fallback})`,
    }
  }
  return undefined
}

function configFilesIn(folder: string, names: readonly string[]): string[] {
  return names.map((name) => path.join(folder, name)).filter((file) => existsSync(file))
}

function deepMerge(base: unknown, next: unknown): unknown {
  if (!isRecord(base) || !isRecord(next)) return next
  const merged: Record<string, unknown> = { ...base }
  for (const [key, value] of Object.entries(next)) merged[key] = key in merged ? deepMerge(merged[key], value) : value
  return merged
}
